package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.ReadFrom;
import io.redkit.Redkit;
import io.redkit.testing.CommandLog;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisSentinelGroup;

/** {@link ReplicaReadsContract} on a real Sentinel group (one master, one replica). */
class SentinelReplicaReadsIT extends ReplicaReadsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisSentinelGroup> redis = DeploymentExtension.sentinel();

    SentinelReplicaReadsIT() {
        super(redis);
    }

    @Test
    void plainJsonHitsReadTheirPttlOnTheReplicaToo() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.readFrom(ReadFrom.REPLICA_PREFERRED)
                .format(CacheFormat.PLAIN_JSON));
        source.rows.put("p", "v");
        assertThat(cache.get("p")).contains("v");
        awaitReplicated(List.of("p"));
        try (CommandLog onReplicas = CommandLog.start(deployment.replicas());
                CommandLog onMasters = CommandLog.start(deployment.masters())) {
            assertThat(cache.get("p")).contains("v");
            assertThat(onReplicas.dataCommandsOf(clientName)).isEqualTo(Map.of("get", 1L, "pttl", 1L));
            assertThat(onMasters.dataCommandCountOf(clientName)).isZero();
        }
        assertThat(source.loads.get()).isEqualTo(1);
    }
}
