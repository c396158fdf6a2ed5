package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * docs/observations.md against the sources: every observation a library module makes (the name given to {@code
 * new ObservedOperation(…)}) is a row of its table, with that module, and every row is one the code makes. Their
 * key values are checked where they are made, by each module's {@code *ObservationIT}.
 */
class ObservationTableTest {

    private static final Pattern OBSERVED = Pattern.compile("new ObservedOperation\\([^,]*,\\s*\"(redkit\\.[^\"]+)\"");
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`(redkit\\.[^`]+)`\\s*\\|(.*)\\|\\s*$");

    /** The observation names made in {@code code}, a source file's text. */
    static Set<String> observationsIn(String code) {
        Set<String> names = new TreeSet<>();
        Matcher m = OBSERVED.matcher(code);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void everyObservationInTheSourcesIsARowOfTheTableAndEveryRowIsInTheSources() {
        Map<String, String> inSources = new TreeMap<>();
        for (Path module : MeterTableTest.libraryModules()) {
            for (Path file : MeterTableTest.javaFiles(module.resolve("src/main/java"))) {
                for (String name : observationsIn(MeterTableTest.code(file))) {
                    inSources.put(name, module.getFileName().toString());
                }
            }
        }
        Map<String, String> inTable = new TreeMap<>();
        Path doc = MeterTableTest.moduleDir().getParent().resolve("docs/observations.md");
        for (String line : MeterTableTest.lines(doc)) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                String[] cells = m.group(2).split("\\|", -1);
                assertThat(cells).as("columns of the row of " + m.group(1)).hasSize(4);
                assertThat(inTable.put(m.group(1), cells[3].trim())).as("second row for " + m.group(1)).isNull();
            }
        }
        assertThat(inSources).as("observations made in src/main of the library modules").isNotEmpty();
        assertThat(inTable).as("docs/observations.md: name → module").isEqualTo(inSources);
    }
}
