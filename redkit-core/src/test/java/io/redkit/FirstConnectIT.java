package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisServerExtension;

/**
 * The first connect of a fresh JVM (issue 21.5): what it loads is what it costs, so a JVM of its own connects and
 * reads once, and the classes it loaded are read from the JVM's own class-loading log.
 */
class FirstConnectIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    @TempDir
    Path dir;

    @Test
    void firstConnectAndReadBuildNeitherTheSyncNorTheReactiveFacade() throws IOException, InterruptedException {
        List<String> loaded = loadedByFirstConnect(redis.url());

        // The sync facade is a Proxy over RedisCommands, the reactive one a RedisReactiveCommandsImpl.
        assertThat(loaded).noneMatch(line -> line.contains(" io.lettuce.core.api.sync.RedisCommands "))
                .noneMatch(line -> line.contains(" io.lettuce.core.RedisReactiveCommandsImpl "));
    }

    @Test
    void clusterFirstConnectAndReadBuildNeitherFacadeOnTheClusterNorOnANodeConnection()
            throws IOException, InterruptedException {
        List<String> loaded = loadedByFirstConnect(cluster.url());

        assertThat(loaded)
                .noneMatch(line -> line.contains(" io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands "))
                .noneMatch(line -> line.contains(" io.lettuce.core.cluster.RedisAdvancedClusterReactiveCommandsImpl "))
                .noneMatch(line -> line.contains(" io.lettuce.core.api.sync.RedisCommands "))
                .noneMatch(line -> line.contains(" io.lettuce.core.RedisReactiveCommandsImpl "));
    }

    /** The class-loading log of a fresh JVM that ran {@link Probe} against {@code url}. */
    private List<String> loadedByFirstConnect(String url) throws IOException, InterruptedException {
        Path classes = dir.resolve("classes.log");
        Path out = dir.resolve("out.log");
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + classes, "-cp", System.getProperty("java.class.path"),
                Probe.class.getName(), url)
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        // A bound for a hung child only; the outcome is read from what it loaded, not from how long it took.
        assertThat(probe.waitFor(2, TimeUnit.MINUTES)).as("probe exited").isTrue();
        assertThat(probe.exitValue()).as(Files.readString(out)).isZero();
        assertThat(Files.readString(out)).contains("reply=empty");
        List<String> loaded = Files.readAllLines(classes);
        assertThat(loaded).as("the Lettuce classes of the first connect were logged")
                .anyMatch(line -> line.contains(" io.lettuce.core.AbstractRedisAsyncCommands "));
        return loaded;
    }

    /** Connects, reads a key that does not exist and closes: the path of a service's first request. */
    public static final class Probe {

        private Probe() {
        }

        /** {@code args[0]}: the Redis URL. */
        public static void main(String[] args) {
            try (Redkit redkit = Redkit.connect(args[0])) {
                System.out.println("reply=" + redkit.commands().get("first-connect:absent").map(v -> "value")
                        .orElse("empty"));
            }
        }
    }
}
