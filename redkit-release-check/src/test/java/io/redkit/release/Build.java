package io.redkit.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The reactor as Maven Central will see it: the root pom's modules, which of them are published, their poms with the
 * parent chain a consumer resolves, and the files the build left in each {@code target}.
 */
final class Build {

    /** The directory of the root pom ({@code redkit.root}, set by surefire). */
    final Path root;
    /** The version being built ({@code redkit.version}). */
    final String version;

    private Build(Path root, String version) {
        this.root = root;
        this.version = version;
    }

    /** The build this test runs in, from the system properties the module's pom sets. */
    static Build current() {
        String root = System.getProperty("redkit.root");
        String version = System.getProperty("redkit.version");
        if (root == null || version == null) {
            throw new IllegalStateException("run by Maven (-Prelease): redkit.root and redkit.version are unset");
        }
        return new Build(Path.of(root).toAbsolutePath().normalize(), version);
    }

    /** The root pom's modules that are published: those whose pom does not set {@code maven.deploy.skip}. */
    List<String> publishedModules() {
        List<String> published = new ArrayList<>();
        for (Element module : children(child(pom(root.resolve("pom.xml")).getDocumentElement(), "modules"), "module")) {
            String name = module.getTextContent().trim();
            Element properties = child(pom(root.resolve(name).resolve("pom.xml")).getDocumentElement(), "properties");
            Element skip = child(properties, "maven.deploy.skip");
            if (skip == null || !skip.getTextContent().trim().equals("true")) {
                published.add(name);
            }
        }
        return published;
    }

    /** A module's packaging ({@code jar} when its pom names none). */
    String packaging(String module) {
        return text(pom(root.resolve(module).resolve("pom.xml")).getDocumentElement(), "packaging").orElse("jar");
    }

    /** A file the build wrote to a module's {@code target}. */
    Path target(String module, String fileName) {
        return root.resolve(module).resolve("target").resolve(fileName);
    }

    /** {@code <artifactId>-<version><suffix>} in a module's {@code target}, e.g. suffix {@code -sources.jar}. */
    Path artifact(String module, String suffix) {
        return target(module, module + "-" + version + suffix);
    }

    /**
     * The value a consumer reads at {@code path} (slash-separated child elements) in a pom: the pom's own, or else
     * its parent's, up the parent chain inside this repository (as Maven inherits url, licences, developers, SCM).
     */
    Optional<String> inherited(Path pomFile, String path) {
        Element project = pom(pomFile).getDocumentElement();
        Optional<String> own = text(project, path);
        if (own.isPresent()) {
            return own;
        }
        Element parent = child(project, "parent");
        if (parent == null) {
            return Optional.empty();
        }
        String relative = text(parent, "relativePath").orElse("../pom.xml");
        Path parentPom = pomFile.getParent().resolve(relative).normalize();
        if (Files.isDirectory(parentPom)) {
            parentPom = parentPom.resolve("pom.xml");
        }
        return Files.isRegularFile(parentPom) ? inherited(parentPom, path) : Optional.empty();
    }

    /** A pom file, parsed. */
    static Document pom(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile());
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file + ": " + e, e);
        } catch (Exception e) {
            throw new AssertionError("not a pom: " + file + ": " + e, e);
        }
    }

    /** The trimmed, non-blank text at {@code path} (slash-separated child elements) below {@code from}. */
    static Optional<String> text(Element from, String path) {
        Element at = from;
        for (String name : path.split("/")) {
            at = child(at, name);
            if (at == null) {
                return Optional.empty();
            }
        }
        String text = at.getTextContent().trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /** The first child element of that name, or null (also when {@code parent} is null). */
    static Element child(Element parent, String name) {
        List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.get(0);
    }

    /** The child elements of that name, in document order (none when {@code parent} is null). */
    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent == null) {
            return found;
        }
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }
}
