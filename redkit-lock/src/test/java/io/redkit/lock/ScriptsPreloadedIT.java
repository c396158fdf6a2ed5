package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.RedisScript;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.CommandLog;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisServer;

/**
 * Scripts are loaded before their first call (issue 21 point 4): on a server that has never seen them, and on one
 * restarted under a connected client, the first release is one EVALSHA and never the EVALSHA, NOSCRIPT, EVAL
 * sequence that a stall between its two halves could abandon.
 */
class ScriptsPreloadedIT {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    private final String clientName = CommandLog.uniqueClientName("scripts-test");

    @Test
    void theFirstReleaseOnAFreshServerIsOneEvalshaAndSoAfterItRestarts() {
        try (RedisServer server = RedisServer.start();
                Redkit redkit = Redkit.create(RedkitConfig.builder().url(server.url()).clientName(clientName)
                        .build());
                Locks locks = Locks.create(redkit, LockConfig.builder().build())) {
            assertThat(firstReleaseCalls(locks, List.of(server))).containsEntry("evalsha", 1L)
                    .doesNotContainKey("eval");

            server.restart(); // an empty script cache, and the client reconnects on its own
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                    .until(() -> "PONG".equals(redkit.commands().ping()));
            assertThat(firstReleaseCalls(locks, List.of(server))).containsEntry("evalsha", 1L)
                    .doesNotContainKey("eval");
        }
    }

    @Test
    void everyClusterNodeHoldsTheScriptsAndTheFirstReleaseIsOneEvalsha() {
        for (RedisServer node : cluster.nodes()) {
            node.command("SCRIPT", "FLUSH");
        }
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(cluster.url()).clientName(clientName)
                        .build());
                Locks locks = Locks.create(redkit, LockConfig.builder().build())) {
            for (RedisServer node : cluster.nodes()) {
                for (RedisScript<?> script : LockScripts.ALL) {
                    assertThat(node.command("SCRIPT", "EXISTS", script.sha1())).as("%s on %s", script.name(), node)
                            .isEqualTo(List.of(1L));
                }
            }
            assertThat(firstReleaseCalls(locks, cluster.masters())).containsEntry("evalsha", 1L)
                    .doesNotContainKey("eval");
        }
    }

    @Test
    void aReplicaPromotedWithoutTheScriptsHasThemOnceTheClientSeesTheNewTopology() {
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(cluster.url()).clientName(clientName)
                        .build());
                Locks locks = Locks.create(redkit, LockConfig.builder().build())) {
            String name = "promoted-" + System.nanoTime();
            String key = locks.lock(name).key();
            RedisServer replica = cluster.get().replicaOf(cluster.get().masterForKey(key));
            replica.command("SCRIPT", "FLUSH"); // as a node that joined after the client had loaded its scripts
            cluster.get().failover(replica);

            // A plain GET meets MOVED, the client reloads the slot map and walks every node again; no script runs.
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
                redkit.commands().getString(key);
                return replica.command("SCRIPT", "EXISTS", LockScripts.ACQUIRE.sha1(), LockScripts.RELEASE.sha1())
                        .equals(List.of(1L, 1L));
            });
            Lease lease = locks.lock(name).acquire();
            try (CommandLog log = CommandLog.start(cluster.masters())) {
                assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
                assertThat(log.dataCommandsOf(clientName)).containsEntry("evalsha", 1L).doesNotContainKey("eval");
            }
        }
    }

    private Map<String, Long> firstReleaseCalls(Locks locks, List<RedisServer> servers) {
        Lease lease = locks.lock("report-" + System.nanoTime()).acquire();
        try (CommandLog log = CommandLog.start(servers)) {
            assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
            return log.dataCommandsOf(clientName);
        }
    }
}
