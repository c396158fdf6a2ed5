package io.redkit.stream;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.Deployment;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisClusterExtension;
import io.redkit.testing.RedisServer;

/**
 * {@link StreamFaultsContract} on a real 3+3 Cluster whose node timeout (5 s) outlasts the 2 s pause: with the
 * default 2 s the paused master may be failed over, and a failover loses the delivery and acknowledgement state
 * not yet copied to the replica, so messages come back as new ones (see the README). That is Redis's
 * replication, not the queue's; this suite pins the queue.
 */
class ClusterStreamFaultsIT extends StreamFaultsContract {

    @RegisterExtension
    static final RedisClusterExtension cluster = RedisClusterExtension.from(RedisCluster.builder()
            .nodeTimeout(Duration.ofSeconds(5)));

    ClusterStreamFaultsIT() {
        super(new Deployment() {
            private Deployment now() {
                return Deployment.of(cluster.cluster());
            }

            @Override
            public Kind kind() {
                return Kind.CLUSTER;
            }

            @Override
            public String url() {
                return now().url();
            }

            @Override
            public RedisServer serverOf(String key) {
                return now().serverOf(key);
            }

            @Override
            public List<RedisServer> masters() {
                return now().masters();
            }

            @Override
            public List<RedisServer> replicas() {
                return now().replicas();
            }

            @Override
            public List<RedisServer> nodes() {
                return now().nodes();
            }

            @Override
            public void healAll() {
                now().healAll();
            }
        });
    }
}
