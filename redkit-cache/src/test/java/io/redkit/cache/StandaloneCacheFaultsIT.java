package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link CacheFaultsContract} on one real redis-server. */
class StandaloneCacheFaultsIT extends CacheFaultsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneCacheFaultsIT() {
        super(redis);
    }

    @Test
    void hostileDeflatedEntryIsACorruptEntryNotAnOutOfMemoryError() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process probe = new ProcessBuilder(java, "-Xmx200m", "-cp", System.getProperty("java.class.path"),
                HostileEntryProbe.class.getName(), redis.url(), name).redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output).as("the probe's output, heap 200 MB").contains("OK loaded-garbage loaded-bomb")
                .doesNotContain("OutOfMemoryError");
        assertThat(probe.exitValue()).isZero();
    }
}
