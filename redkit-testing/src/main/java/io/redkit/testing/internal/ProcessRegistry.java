package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records every server this JVM starts, so that no redis-server or PostgreSQL outlives the tests that wanted it.
 *
 * <p>Each server has a pid file in {@code ${java.io.tmpdir}/redkit-testing/pids/} naming the owner
 * JVM, the server process and its directory. A shutdown hook kills this JVM's servers; a JVM killed
 * with SIGKILL runs no hook, so the first use in every JVM sweeps entries whose owner is gone.
 */
public final class ProcessRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessRegistry.class);
    private static final Set<Registration> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final ProcessHandle SELF = ProcessHandle.current();
    // Start times tell a live owner from an unrelated process that reused its pid.
    // A dead JVM's pid is killed only if it still runs one of these (the pid may have been reused).
    private static final List<String> SERVER_COMMANDS = List.of("redis-server", "postgres");
    private static final Duration START_TOLERANCE = Duration.ofSeconds(2);
    private static boolean initialized;

    private ProcessRegistry() {
    }

    /** Returns {@code ${java.io.tmpdir}/redkit-testing}, under which all files of this module live. */
    public static Path baseDir() {
        return Path.of(System.getProperty("java.io.tmpdir"), "redkit-testing").toAbsolutePath().normalize();
    }

    /** Returns the directory of pid files. */
    public static Path pidDir() {
        return baseDir().resolve("pids");
    }

    /** Creates a fresh directory for one redis-server's conf file, log and data. */
    public static Path newServerDir() {
        return newServerDir("redis-");
    }

    /** Creates a fresh directory for one server, named {@code <prefix><random>}. */
    public static Path newServerDir(String prefix) {
        init();
        try {
            Path servers = Files.createDirectories(baseDir().resolve("servers"));
            return Files.createTempDirectory(servers, prefix);
        } catch (IOException e) {
            throw new RedisTestingException("Cannot create a server directory under " + baseDir(), e);
        }
    }

    /** Registers a server (its directory now, its process when attached) until the registration is closed. */
    public static Registration register(Path serverDir) {
        init();
        Registration registration = new Registration(pidDir().resolve(SELF.pid() + "-" + SEQUENCE.incrementAndGet() + ".pid"), serverDir);
        registration.write();
        OPEN.add(registration);
        return registration;
    }

    private static synchronized void init() {
        if (initialized) {
            return;
        }
        initialized = true;
        try {
            Files.createDirectories(pidDir());
        } catch (IOException e) {
            throw new RedisTestingException("Cannot create " + pidDir(), e);
        }
        int swept = sweepStale();
        if (swept > 0) {
            LOG.info("Swept {} stale server entries left by dead JVMs in {}", swept, pidDir());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(Registration::destroy), "redkit-testing-cleanup"));
    }

    /**
     * Removes entries whose owner JVM is no longer alive: kills the server if its pid still runs
     * redis-server or postgres (a pid may have been reused by something else), deletes its directory and the entry.
     *
     * @return the number of entries removed
     */
    public static int sweepStale() {
        int swept = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(pidDir(), "*.pid")) {
            for (Path file : files) {
                if (sweep(file)) {
                    swept++;
                }
            }
        } catch (IOException e) {
            LOG.warn("Cannot list {}: {}", pidDir(), e.toString());
        }
        return swept;
    }

    private static boolean sweep(Path file) {
        Properties entry = new Properties();
        try {
            entry.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
            long owner = Long.parseLong(entry.getProperty("owner"));
            if (isAlive(owner, Long.parseLong(entry.getProperty("ownerStart", "0")))) {
                return false;
            }
            long server = Long.parseLong(entry.getProperty("server", "0"));
            if (server > 0 && Signals.commandLine(server).filter(c -> SERVER_COMMANDS.stream().anyMatch(c::contains)).isPresent()) {
                LOG.info("Killing server pid {} left by dead JVM {}", server, owner);
                ProcessHandle.of(server).ifPresent(ProcessRegistry::killAndWait);
            }
            Optional.ofNullable(entry.getProperty("dir")).map(Path::of).map(Path::normalize)
                    .filter(dir -> dir.startsWith(baseDir()) && !dir.equals(baseDir()))
                    .ifPresent(FileUtil::deleteRecursively);
            Files.deleteIfExists(file);
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot sweep {}: {}", file, e.toString());
            return false;
        }
    }

    private static boolean isAlive(long pid, long startMillis) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .map(h -> startMillis == 0 || h.info().startInstant()
                        .map(start -> Math.abs(start.toEpochMilli() - startMillis) <= START_TOLERANCE.toMillis())
                        .orElse(true))
                .orElse(false);
    }

    private static void killAndWait(ProcessHandle process) {
        process.destroyForcibly();
        try {
            process.onExit().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("pid {} did not exit after SIGKILL: {}", process.pid(), e.toString());
        }
    }

    /** One server's entry: written at start, updated at each (re)start and kill, deleted at close. */
    public static final class Registration implements AutoCloseable {

        private final Path file;
        private final Path dir;
        private ProcessHandle process;
        private boolean closed;

        private Registration(Path file, Path dir) {
            this.file = file;
            this.dir = dir;
        }

        /** Records the running process, so that a shutdown or a later sweep kills it. */
        public void attach(Process process) {
            attach(process.toHandle());
        }

        /** Records a running process this JVM did not start itself (a daemon forked by a launcher). */
        public synchronized void attach(ProcessHandle process) {
            this.process = process;
            write();
        }

        /** Records that the server has no running process (after kill or stop). */
        public synchronized void detach() {
            this.process = null;
            write();
        }

        /** Deletes the entry; the caller has already killed the process and deleted the directory. */
        @Override
        public synchronized void close() {
            process = null;
            closed = true;
            OPEN.remove(this);
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("Cannot delete {}: {}", file, e.toString());
            }
        }

        private synchronized void destroy() {
            if (process != null) {
                killAndWait(process);
            }
            FileUtil.deleteRecursively(dir);
            close();
        }

        private synchronized void write() {
            if (closed) {
                return;
            }
            String text = "owner=" + SELF.pid() + "\n"
                    + "ownerStart=" + SELF.info().startInstant().map(Instant::toEpochMilli).orElse(0L) + "\n"
                    + "server=" + (process == null ? 0 : process.pid()) + "\n"
                    + "dir=" + dir.toString().replace("\\", "\\\\") + "\n";
            try {
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new RedisTestingException("Cannot write pid file " + file, e);
            }
        }
    }
}
