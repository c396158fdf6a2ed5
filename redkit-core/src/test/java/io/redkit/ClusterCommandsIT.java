package io.redkit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisClusterExtension;

/** {@link CommandsContract} on a real 3-master/3-replica Cluster: SCAN walks every master. */
class ClusterCommandsIT extends CommandsContract {

    @RegisterExtension
    static final RedisClusterExtension cluster = RedisClusterExtension.create();

    @Override
    String url() {
        return cluster.url();
    }
}
