package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * docs/metrics.md against the sources: every meter name a library module's main code names is a row of the table
 * (with that module), and every row is a name the code registers. A name is a {@code "redkit.…"} literal in a
 * file that builds meters, whether it goes straight to a builder or through a helper or a local; a literal ending
 * in a dot is a prefix, completed by the literals the module passes to the method that holds it.
 */
class MeterTableTest {

    /** The modules whose meters are not redkit's: the demo's {@code demo.*} and the lab's own. */
    private static final Set<String> NOT_LIBRARY = Set.of("redkit-demo", "redkit-lab");

    private static final Pattern BUILDS_METERS = Pattern.compile(
            "\\b(Counter|Timer|Gauge|TimeGauge|FunctionCounter|FunctionTimer|DistributionSummary|LongTaskTimer)"
                    + "\\.builder\\(|\\.(counter|timer|gauge|summary)\\(\\s*\"redkit\\.");
    private static final Pattern NAME_LITERAL = Pattern.compile("\"(redkit\\.[^\"\\s:]*)\"");
    private static final Set<String> KEYWORDS = Set.of("if", "for", "while", "switch", "catch", "synchronized", "try");
    private static final Pattern METHOD = Pattern.compile("\\b(\\w+)\\s*\\([^()]*\\)\\s*(throws [\\w., ]+)?\\{");
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`(redkit\\.[^`]+)`\\s*\\|(.*)\\|\\s*$");
    private static final Pattern CONVENTION = Pattern.compile("redkit(\\.[a-z][a-z0-9]*)+");
    /** Prometheus drops these from a name; units belong to the base unit, never to the name. */
    private static final Set<String> FORBIDDEN_LAST = Set.of("total", "created", "bucket", "info", "count", "sum");
    private static final Set<String> UNITS = Set.of("seconds", "second", "millis", "ms", "nanos", "ns", "bytes",
            "percent");

    private final Path root = moduleDir().getParent();

    @Test
    void everyMeterInTheSourcesIsARowOfTheTableAndEveryRowIsInTheSources() {
        Map<String, String> inSources = metersInSources();
        Map<String, String> inTable = rowsOfTable();

        assertThat(inSources).as("meters found in src/main of the library modules").isNotEmpty();
        assertThat(inTable.keySet()).as("rows of docs/metrics.md missing a meter the code registers")
                .containsAll(inSources.keySet());
        assertThat(inSources.keySet()).as("rows of docs/metrics.md for meters no library module registers")
                .containsAll(inTable.keySet());
        Map<String, String> wrongModule = new TreeMap<>();
        inTable.forEach((name, module) -> {
            if (!module.equals(inSources.get(name))) {
                wrongModule.put(name, module + ", registered in " + inSources.get(name));
            }
        });
        assertThat(wrongModule).as("rows of docs/metrics.md whose module column is wrong").isEmpty();
    }

    @Test
    void namesFollowMicrometersConventions() {
        for (String name : metersInSources().keySet()) {
            assertThat(name).as("lower-case dotted name").matches(CONVENTION);
            String[] parts = name.split("\\.");
            assertThat(FORBIDDEN_LAST).as(name + ": Prometheus adds or drops this suffix itself")
                    .doesNotContain(parts[parts.length - 1]);
            for (String part : parts) {
                assertThat(UNITS).as(name + ": a unit is a base unit, not part of the name").doesNotContain(part);
            }
        }
    }

    /** Meter name → module, from the literals of the files that build meters. */
    private Map<String, String> metersInSources() {
        Map<String, String> names = new TreeMap<>();
        Map<String, Set<String>> prefixes = new TreeMap<>();
        for (Path module : libraryModules()) {
            String moduleName = module.getFileName().toString();
            for (Path file : javaFiles(module.resolve("src/main/java"))) {
                String code = code(file);
                if (!BUILDS_METERS.matcher(code).find()) {
                    continue;
                }
                Set<String> found = new TreeSet<>();
                collect(NAME_LITERAL, code, found);
                found.removeAll(ObservationTableTest.observationsIn(code)); // in docs/observations.md
                for (String name : found) {
                    if (name.endsWith(".")) {
                        prefixes.computeIfAbsent(name, p -> new TreeSet<>()).add(moduleName);
                    } else {
                        String before = names.putIfAbsent(name, moduleName);
                        assertThat(before == null || before.equals(moduleName))
                                .as(name + " is registered by " + before + " and " + moduleName).isTrue();
                    }
                }
            }
        }
        // A prefix ("redkit.pool." + name) is completed by the literals the module passes to the method that
        // holds it (poolGauge("active", …)).
        prefixes.forEach((prefix, modules) -> {
            for (String module : modules) {
                Set<String> completed = completions(root.resolve(module), prefix);
                assertThat(completed).as("meters named " + prefix + "… in " + module + ": no call found").isNotEmpty();
                completed.forEach(n -> names.put(n, module));
            }
        });
        return names;
    }

    /** The names made of {@code prefix} and the literals the module passes to the method holding it. */
    private static Set<String> completions(Path module, String prefix) {
        Set<String> methods = new TreeSet<>();
        List<String> sources = javaFiles(module.resolve("src/main/java")).stream().map(MeterTableTest::code).toList();
        for (String code : sources) {
            int at = code.indexOf('"' + prefix + '"');
            if (at >= 0) {
                Matcher m = METHOD.matcher(code.substring(0, at));
                String method = null;
                while (m.find()) {
                    if (!KEYWORDS.contains(m.group(1))) {
                        method = m.group(1);
                    }
                }
                assertThat(method).as("the method holding " + prefix).isNotNull();
                methods.add(method);
            }
        }
        Set<String> names = new TreeSet<>();
        for (String method : methods) {
            Pattern call = Pattern.compile("\\b" + method + "\\(\\s*\"([a-z0-9.]+)\"");
            for (String code : sources) {
                Set<String> suffixes = new TreeSet<>();
                collect(call, code, suffixes);
                suffixes.forEach(s -> names.add(prefix + s));
            }
        }
        return names;
    }

    /** Meter name → module column, from docs/metrics.md. */
    private Map<String, String> rowsOfTable() {
        Map<String, String> rows = new TreeMap<>();
        for (String line : lines(root.resolve("docs/metrics.md"))) {
            Matcher m = ROW.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String[] cells = m.group(2).split("\\|", -1);
            assertThat(cells).as("columns of the row of " + m.group(1)).hasSize(5);
            String before = rows.put(m.group(1), cells[4].trim());
            assertThat(before).as("second row for " + m.group(1)).isNull();
        }
        return rows;
    }

    static List<Path> libraryModules() {
        try (Stream<Path> dirs = Files.list(moduleDir().getParent())) {
            List<Path> modules = dirs.filter(d -> d.getFileName().toString().startsWith("redkit-"))
                    .filter(d -> !NOT_LIBRARY.contains(d.getFileName().toString()))
                    .filter(d -> Files.isDirectory(d.resolve("src/main/java"))).sorted().toList();
            assertThat(modules).as("library modules beside " + moduleDir())
                    .extracting(p -> p.getFileName().toString()).contains("redkit-core", "redkit-cache");
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Path> javaFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file without its comment lines and trailing comments, so that a name in prose is not a meter. */
    static String code(Path file) {
        return lines(file).stream().map(String::strip)
                .filter(l -> !l.startsWith("*") && !l.startsWith("/*") && !l.startsWith("//"))
                .map(l -> l.replaceAll("\\s//[^\"]*$", "")).collect(Collectors.joining("\n"));
    }

    private static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path moduleDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    }
}
