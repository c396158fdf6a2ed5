package io.redkit.cache;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link CacheContract} on a real 3-master/3-replica Cluster: MGET and UNLINK split per slot, SCAN on every master. */
class ClusterCacheIT extends CacheContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterCacheIT() {
        super(cluster);
    }
}
