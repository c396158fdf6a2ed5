package io.redkit.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import javax.lang.model.SourceVersion;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * What Maven Central refuses, or a user trips over, checked on the files this build wrote for every published
 * module (the root pom's modules without {@code maven.deploy.skip}). Each test lists every offending module at once.
 */
class PublishedArtifactsTest {

    private static final String BOM = "redkit-bom";
    /** redkit-bom's flatten-maven-plugin output: the pom that is installed and deployed. */
    private static final String FLATTENED_BOM = "flattened-pom.xml";
    private static final List<String> REQUIRED_POM_FIELDS = List.of(
            "url", "licenses/license/name", "licenses/license/url", "developers/developer/name",
            "scm/url", "scm/connection");

    /**
     * The Boot 4 starter for each starter of another Boot line: the same module (name and packages, its sources are
     * shared) for an application on that line, which has one of the two, never both.
     */
    private static final Map<String, String> SAME_MODULE = Map.of("redkit-spring-boot3-starter",
            "redkit-spring-boot-starter");

    private final Build build = Build.current();

    @Test
    void publishedModulesExcludeTheDemoAndTheLab() {
        assertThat(build.publishedModules())
                .contains(BOM, "redkit-core", "redkit-spring-boot-starter")
                .doesNotContain("redkit-demo", "redkit-lab", "redkit-release-check");
    }

    @Test
    void everyPublishedJarHasItsSourcesAndJavadocBesideIt() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String module : jarModules()) {
            requireEntry(problems, module, build.artifact(module, ".jar"), ".class");
            requireEntry(problems, module, build.artifact(module, "-sources.jar"), ".java");
            requireEntry(problems, module, build.artifact(module, "-javadoc.jar"), "index.html");
        }
        assertThat(problems).as("artifacts Maven Central requires").isEmpty();
    }

    @Test
    void everyPublishedJarNamesItsModuleAfterTheRootOfItsPackages() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, String> moduleOfPackage = new HashMap<>();
        Map<String, String> jarOfName = new HashMap<>();
        for (String module : jarModules()) {
            Path jar = build.artifact(module, ".jar");
            if (!Files.isRegularFile(jar)) {
                problems.add(module + ": no " + jar.getFileName());
                continue;
            }
            try (JarFile file = new JarFile(jar.toFile())) {
                String name = file.getManifest() == null ? null
                        : file.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
                if (name == null || !SourceVersion.isName(name) || !name.startsWith("io.redkit")) {
                    problems.add(module + ": Automatic-Module-Name is " + name);
                    continue;
                }
                String same = SAME_MODULE.getOrDefault(module, module);
                String other = jarOfName.put(name, same);
                if (other != null && !other.equals(same)) {
                    problems.add(module + ": Automatic-Module-Name " + name + " is also " + other + "'s");
                }
                for (String pkg : packages(file)) {
                    if (!pkg.equals(name) && !pkg.startsWith(name + ".")) {
                        problems.add(module + ": package " + pkg + " is outside its module name " + name);
                    }
                    String owner = moduleOfPackage.put(pkg, same);
                    if (owner != null && !owner.equals(same)) {
                        problems.add(module + ": package " + pkg + " is split with " + owner);
                    }
                }
            }
        }
        assertThat(problems).as("module names for the module path").isEmpty();
    }

    @Test
    void everyPublishedPomCarriesWhatCentralRequires() {
        List<String> problems = new ArrayList<>();
        requirePomFields(problems, "redkit-parent", build.root.resolve("pom.xml"));
        for (String module : build.publishedModules()) {
            Path pom = module.equals(BOM) ? build.target(BOM, FLATTENED_BOM) : build.root.resolve(module).resolve("pom.xml");
            if (!Files.isRegularFile(pom)) {
                problems.add(module + ": no " + pom);
                continue;
            }
            requirePomFields(problems, module, pom);
            // name is not inherited, and an inherited description would describe the parent
            Element project = Build.pom(pom).getDocumentElement();
            for (String own : List.of("name", "description")) {
                if (Build.text(project, own).isEmpty()) {
                    problems.add(module + ": no <" + own + "> of its own");
                }
            }
        }
        assertThat(problems).as("pom elements Maven Central requires").isEmpty();
    }

    @Test
    void theInstalledBomListsEveryPublishedModuleAtThisVersionAndNothingElse() {
        Path bom = build.target(BOM, FLATTENED_BOM);
        assertThat(bom).as("redkit-bom's flattened pom").isRegularFile();
        Element project = Build.pom(bom).getDocumentElement();
        assertThat(Build.child(project, "parent"))
                .as("a parent in the BOM would bring its Netty, Jackson and JUnit pins into every importing build")
                .isNull();

        Set<String> listed = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        Element management = Build.child(Build.child(project, "dependencyManagement"), "dependencies");
        for (Element dependency : Build.children(management, "dependency")) {
            String id = Build.text(dependency, "groupId").orElse("") + ":" + Build.text(dependency, "artifactId").orElse("");
            String version = Build.text(dependency, "version").orElse("");
            listed.add(id);
            if (!version.equals(build.version)) {
                problems.add(id + " at " + version + ", not " + build.version);
            }
        }
        Set<String> published = new TreeSet<>();
        for (String module : jarModules()) {
            published.add("io.redkit:" + module);
        }
        assertThat(problems).as("versions in redkit-bom").isEmpty();
        assertThat(listed).as("redkit-bom's entries").isEqualTo(published);
    }

    private List<String> jarModules() {
        List<String> jars = new ArrayList<>();
        for (String module : build.publishedModules()) {
            if (build.packaging(module).equals("jar")) {
                jars.add(module);
            }
        }
        return jars;
    }

    private void requirePomFields(List<String> problems, String module, Path pom) {
        for (String field : REQUIRED_POM_FIELDS) {
            if (build.inherited(pom, field).isEmpty()) {
                problems.add(module + ": no <" + field.replace("/", "><") + "> (own or inherited)");
            }
        }
    }

    private static void requireEntry(List<String> problems, String module, Path jar, String endingWith)
            throws IOException {
        if (!Files.isRegularFile(jar)) {
            problems.add(module + ": no " + jar.getFileName());
            return;
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            boolean found = file.stream().map(ZipEntry::getName).anyMatch(name -> name.endsWith(endingWith));
            if (!found) {
                problems.add(module + ": " + jar.getFileName() + " holds no " + endingWith);
            }
        }
    }

    private static Set<String> packages(JarFile jar) {
        Set<String> packages = new TreeSet<>();
        jar.stream().map(ZipEntry::getName)
                .filter(name -> name.endsWith(".class") && !name.startsWith("META-INF/") && name.contains("/"))
                .forEach(name -> packages.add(name.substring(0, name.lastIndexOf('/')).replace('/', '.')));
        return packages;
    }
}
