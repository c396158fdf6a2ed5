package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A redis-server executable and its version.
 *
 * <p>Resolution order: system property {@value #PATH_PROPERTY}, environment variable
 * {@value #PATH_ENV}, {@code redis-server} on the PATH, then the binary shipped in the
 * embedded-redis jar. {@value #EMBEDDED_PROPERTY}{@code =true} skips straight to the embedded one.
 *
 * @param path the executable
 * @param version its version, for example {@code 7.0.15}
 */
public record RedisBinary(Path path, String version) {

    /** System property naming the redis-server executable to use. */
    public static final String PATH_PROPERTY = "redkit.redis.server";
    /** Environment variable naming the redis-server executable to use. */
    public static final String PATH_ENV = "REDKIT_REDIS_SERVER";
    /** System property that, set to {@code true}, forces the binary shipped in the embedded-redis jar. */
    public static final String EMBEDDED_PROPERTY = "redkit.redis.embedded";

    private static final Logger LOG = LoggerFactory.getLogger(RedisBinary.class);
    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final Map<Path, RedisBinary> KNOWN = new ConcurrentHashMap<>();

    /** Resolves the binary to use now; the system properties are read at every call so a test can switch. */
    public static RedisBinary resolve() {
        if (Boolean.getBoolean(EMBEDDED_PROPERTY)) {
            return of(embedded());
        }
        String configured = Optional.ofNullable(System.getProperty(PATH_PROPERTY)).orElse(System.getenv(PATH_ENV));
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (!Files.isExecutable(path)) {
                throw new RedisTestingException(PATH_PROPERTY + "/" + PATH_ENV + " names " + path + ", which is not an executable file");
            }
            return of(path);
        }
        return of(onPath().orElseGet(RedisBinary::embedded));
    }

    /** Returns the binary at {@code path}, asking it for its version once per JVM. */
    public static RedisBinary of(Path path) {
        return KNOWN.computeIfAbsent(path.toAbsolutePath(), p -> new RedisBinary(p, readVersion(p)));
    }

    /** Tells whether this binary is at least version {@code major.minor}. */
    public boolean atLeast(int major, int minor) {
        String[] parts = version.split("\\.");
        int actualMajor = Integer.parseInt(parts[0]);
        return actualMajor > major || (actualMajor == major && Integer.parseInt(parts[1]) >= minor);
    }

    /** Finds {@code redis-server} in the directories of PATH. */
    static Optional<Path> onPath() {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "redis-server");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** Extracts (once, into a cache shared by all runs) the embedded-redis binary for this OS and returns it. */
    public static Path embedded() {
        String resource = embeddedResource(System.getProperty("os.name"), System.getProperty("os.arch"));
        Path target = ProcessRegistry.baseDir().resolve("bin").resolve(resource);
        if (Files.isExecutable(target)) {
            return target;
        }
        try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new RedisTestingException("Resource " + resource + " not found: is com.github.codemonstur:embedded-redis on the classpath?");
            }
            Files.createDirectories(target.getParent());
            // Another JVM may extract concurrently: each writes its own temp file and renames it into place atomically.
            Path tmp = Files.createTempFile(target.getParent(), resource, ".part");
            try {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            LOG.info("Extracted embedded {} to {}", resource, target);
            return target;
        } catch (IOException e) {
            throw new RedisTestingException("Cannot extract embedded redis-server " + resource + " to " + target, e);
        }
    }

    /** Names the embedded-redis resource for an OS and architecture as Java reports them. */
    public static String embeddedResource(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        if (os.contains("linux") && x64) {
            return "redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("linux") && arm64) {
            return "redis-server-6.2.7-linux-arm64";
        }
        if (os.contains("linux") && (arch.equals("x86") || arch.equals("i386"))) {
            return "redis-server-6.2.7-linux-386";
        }
        if (os.contains("mac") && x64) {
            return "redis-server-6.2.6-v5-darwin-amd64";
        }
        if (os.contains("mac") && arm64) {
            return "redis-server-6.2.6-v5-darwin-arm64";
        }
        throw new RedisTestingException("No embedded redis-server for " + osName + "/" + osArch
                + ": install redis-server or set " + PATH_PROPERTY);
    }

    private static String readVersion(Path path) {
        try {
            Process process = new ProcessBuilder(path.toString(), "--version").redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            String text = new String(output, StandardCharsets.UTF_8);
            Matcher matcher = VERSION.matcher(text);
            if (!matcher.find()) {
                throw new RedisTestingException(path + " --version printed no version: " + text.trim());
            }
            return matcher.group(1) + "." + matcher.group(2) + "." + matcher.group(3);
        } catch (IOException e) {
            throw new RedisTestingException("Cannot run " + path + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisTestingException("Interrupted reading the version of " + path, e);
        }
    }
}
