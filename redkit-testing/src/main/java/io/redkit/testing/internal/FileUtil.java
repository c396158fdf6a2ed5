package io.redkit.testing.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** File helpers: recursive delete and log tails. */
public final class FileUtil {

    // A tail for an error message needs the last lines, not a whole log that may have grown large.
    private static final int TAIL_BYTES = 64 * 1024;

    private FileUtil() {
    }

    /** Deletes a file or directory tree, quietly: cleanup must not hide the failure that caused it. */
    public static void deleteRecursively(Path path) {
        if (path == null || !Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // best effort: the next sweep removes what is left
        }
    }

    /** Returns the last {@code lines} lines of a text file, or an empty string when it does not exist. */
    public static String tail(Path file, int lines) {
        if (lines <= 0 || !Files.isRegularFile(file)) {
            return "";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long start = Math.max(0, in.length() - TAIL_BYTES);
            byte[] bytes = new byte[(int) (in.length() - start)];
            in.seek(start);
            in.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
