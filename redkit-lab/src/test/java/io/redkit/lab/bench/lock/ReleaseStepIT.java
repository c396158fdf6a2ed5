package io.redkit.lab.bench.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lock.LockScripts;
import io.redkit.testing.RedisServer;

/**
 * The release half of the lock ceiling really releases: redis-benchmark, given the step's arguments, finds the
 * locks the step put in place under the keys it makes of {@code __rand_int__}, and the step leaves nothing behind.
 */
class ReleaseStepIT {

    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void redisBenchmarkReleasesTheLocksTheStepHolds() throws Exception {
        Path tool = onPath("redis-benchmark");
        assumeThat(tool).as("redis-benchmark (Debian redis-tools) on PATH").isNotNull();
        server.command("SCRIPT", "LOAD", LockScripts.RELEASE.source());
        BenchEnv env = new BenchEnv(server.url(), server.host(), server.port(), null, "test");
        ReleaseStep step = new ReleaseStep();
        long requests = 2_000;

        step.before(env, requests);
        long held = dbsize();
        assertThat(held).isEqualTo(ReleaseStep.keys(requests));

        List<String> command = new ArrayList<>(List.of(tool.toString(), "-h", server.host(), "-p",
                String.valueOf(server.port()), "-c", "4", "-n", String.valueOf(requests), "-P", "1", "--csv"));
        command.addAll(step.args(requests));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();

        // n draws from 10n keys: about 95% distinct, each a real release (GET, DEL, EXISTS) of a held lock.
        long released = held - dbsize();
        System.out.printf("[figures] ReleaseStepIT %d of %d release calls found a held lock%n", released, requests);
        assertThat(released).isBetween((long) (requests * 0.9), requests);

        step.after(env, requests);
        assertThat(dbsize()).isZero();
    }

    private static long dbsize() {
        return ((Number) server.command("DBSIZE")).longValue();
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        return path == null ? null : Arrays.stream(path.split(File.pathSeparator))
                .map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst().orElse(null);
    }
}
