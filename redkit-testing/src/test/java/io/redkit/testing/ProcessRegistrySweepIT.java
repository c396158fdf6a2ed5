package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redkit.testing.internal.Ports;
import io.redkit.testing.internal.ProcessRegistry;
import io.redkit.testing.internal.RedisBinary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Entries left by a JVM that died without running its shutdown hook are swept by the next JVM: redis-servers and PostgreSQL. */
class ProcessRegistrySweepIT {

    @Test
    void redisServerOfDeadOwnerIsKilledAndItsEntrySwept() throws Exception {
        RedisServer.start().close(); // makes sure the registry of this JVM is initialised
        int port = Ports.reserve(false);
        Path dir = Files.createDirectories(ProcessRegistry.baseDir().resolve("servers").resolve("orphan-" + UUID.randomUUID()));
        Process orphan = new ProcessBuilder(RedisBinary.resolve().path().toString(), "--port", String.valueOf(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.log").toFile()).start();
        try {
            Path entry = writeEntry(deadPid(), orphan.pid(), dir);

            ProcessRegistry.sweepStale();

            await().atMost(Duration.ofSeconds(5)).until(() -> !orphan.isAlive());
            assertThat(entry).doesNotExist();
            assertThat(dir).doesNotExist();
        } finally {
            orphan.destroyForcibly();
            Ports.release(port, false);
        }
    }

    @Test
    void postgresOfDeadOwnerIsKilledAndItsDirectorySwept() throws Exception {
        try (PostgresServer server = PostgresServer.start()) {
            Path entry = writeEntry(deadPid(), server.pid(), server.directory());

            ProcessRegistry.sweepStale();

            await().atMost(Duration.ofSeconds(5)).until(() -> ProcessHandle.of(server.pid()).isEmpty());
            assertThat(entry).doesNotExist();
            assertThat(server.directory()).doesNotExist();
        }
    }

    @Test
    void reusedPidThatIsNotRedisIsLeftAliveButEntrySwept() throws Exception {
        Process unrelated = new ProcessBuilder("sleep", "30").start();
        try {
            Path entry = writeEntry(deadPid(), unrelated.pid(), null);

            ProcessRegistry.sweepStale();

            assertThat(entry).doesNotExist();
            assertThat(unrelated.isAlive()).isTrue();
        } finally {
            unrelated.destroyForcibly();
        }
    }

    @Test
    void entryOfLiveOwnerIsKept() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            Path entry = writeEntry(ProcessHandle.current().pid(), server.pid(), null);
            try {
                ProcessRegistry.sweepStale();

                assertThat(entry).exists();
                assertThat(server.command("PING")).isEqualTo("PONG");
            } finally {
                Files.deleteIfExists(entry);
            }
        }
    }

    /** Returns the pid of a process that has exited, as a JVM killed with SIGKILL would leave it. */
    private static long deadPid() throws Exception {
        Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }

    private static Path writeEntry(long owner, long server, Path dir) throws IOException {
        Path entry = ProcessRegistry.pidDir().resolve("test-" + UUID.randomUUID() + ".pid");
        Files.writeString(entry, "owner=" + owner + "\nserver=" + server + "\n" + (dir == null ? "" : "dir=" + dir + "\n"));
        return entry;
    }
}
