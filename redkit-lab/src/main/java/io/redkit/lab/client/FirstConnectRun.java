package io.redkit.lab.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link FirstConnect} in a fresh JVM (the lab's own Java and class path) against the target and reads its
 * figures: what {@code Redkit.create} to the first reply costs a service that starts, not this warm process.
 */
final class FirstConnectRun {

    /** The target for JVM start to the first reply on standalone. */
    static final long TARGET_MS = 500;
    private static final long WAIT_SECONDS = 120;

    private FirstConnectRun() {
    }

    static ClientReport.FirstConnect run(String url) {
        return run(url, List.of(), System.getProperty("java.class.path"));
    }

    /**
     * The same with an AppCDS archive of the classes such a start loads (docs/first-connect.md): one run records
     * them ({@code -XX:ArchiveClassesAtExit}), the measured one maps them ({@code -XX:SharedArchiveFile}). What an
     * application gets from a JVM option of its own, beside what it gets without.
     */
    static ClientReport.FirstConnect runWithAppCds(String url, String classPath) {
        Path archive;
        try {
            archive = Files.createTempFile("redkit-first-connect", ".jsa");
            Files.delete(archive); // the JVM writes it; an empty file there would be read as a broken archive
        } catch (IOException e) {
            return failed(e.toString());
        }
        try {
            ClientReport.FirstConnect recording = run(url, List.of("-XX:ArchiveClassesAtExit=" + archive), classPath);
            if (recording.error() != null) {
                return failed("recording the archive: " + recording.error());
            }
            if (!Files.isRegularFile(archive)) {
                return failed("no archive written (AppCDS takes jars only on the class path, not directories)");
            }
            return run(url, List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:on"), classPath);
        } finally {
            try {
                Files.deleteIfExists(archive);
            } catch (IOException e) {
                // a temporary file left behind
            }
        }
    }

    private static ClientReport.FirstConnect run(String url, List<String> jvmOptions, String classPath) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, FirstConnect.class.getName(), url));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return failed("no answer within " + WAIT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                return failed("exit code " + p.exitValue() + ": " + out.strip());
            }
            return parse(out);
        } catch (IOException e) {
            return failed(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("interrupted");
        }
    }

    /**
     * The figures of FirstConnect's line ({@code key=value …}), the last one that starts with its first figure: a
     * JVM recording an archive prints its own lines after it at exit. A missing figure fails the parse, named.
     */
    static ClientReport.FirstConnect parse(String out) {
        String[] lines = out.strip().split("\n");
        String figures = lines[lines.length - 1];
        for (int i = lines.length - 1; i >= 0; i--) {
            if (lines[i].startsWith("jvm_to_main_ms=")) {
                figures = lines[i];
                break;
            }
        }
        Map<String, Double> f = new HashMap<>();
        for (String pair : figures.trim().split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                f.put(pair.substring(0, eq), Double.parseDouble(pair.substring(eq + 1)));
            }
        }
        for (String key : List.of("jvm_to_first_reply_ms", "jvm_to_main_ms", "dns_ms", "connect_ms",
                "connect_classes", "first_reply_ms", "warm_connect_ms", "warm_reply_ms")) {
            if (!f.containsKey(key)) {
                return failed("no " + key + " in: " + out.strip());
            }
        }
        long total = Math.round(f.get("jvm_to_first_reply_ms"));
        return new ClientReport.FirstConnect(total, Math.round(f.get("jvm_to_main_ms")), f.get("dns_ms"),
                f.get("connect_ms"), Math.round(f.get("connect_classes")), f.get("first_reply_ms"),
                f.get("warm_connect_ms"), f.get("warm_reply_ms"), TARGET_MS, total <= TARGET_MS, null);
    }

    private static ClientReport.FirstConnect failed(String why) {
        return new ClientReport.FirstConnect(null, null, null, null, null, null, null, null, TARGET_MS, false, why);
    }
}
