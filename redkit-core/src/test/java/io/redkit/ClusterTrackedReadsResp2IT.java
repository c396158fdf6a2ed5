package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisClusterExtension;
import io.redkit.testing.RedisServer;

/**
 * Tracked reads on a Cluster whose nodes speak RESP2 (HELLO renamed on every node, so Lettuce falls back): each
 * master's invalidations are redirected to a subscribed connection to that master, as over RESP3 they are pushed on
 * its own connection; the loss of one is a reset, and tracking comes back redirected to its successor.
 */
class ClusterTrackedReadsResp2IT {

    @RegisterExtension
    static final RedisClusterExtension cluster = RedisClusterExtension.from(RedisCluster.builder().masters(3)
            .replicasPerMaster(0).arg("rename-command", "HELLO", "HELLO-renamed"));

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final InvalidationListener listener = Heard.into(heard);

    @Test
    void eachMastersWritesAreHeardOnARedirectConnectionToThatMaster() throws Exception {
        try (Redkit redkit = Redkit.connect(cluster.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            assertThat(reads.tracking()).isTrue();
            for (RedisServer master : cluster.masters()) {
                assertThat(redirectIds(master)).as("subscribed connections on %s", master).hasSize(1);
            }
            for (RedisServer master : cluster.masters()) {
                String key = keyOn(master);
                master.command("SET", key, "old");
                assertThat(reads.get(key)).map(String::new).contains("old");
                heard.clear();

                master.command("SET", key, "new"); // not redkit's hand
                reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
                assertThat(heard).as("on %s", master).containsExactly("key " + key);
            }
        }
    }

    @Test
    void broadcastModeHearsEveryKeyOfAMessageThatNamesSeveralOnEveryMaster() throws Exception {
        try (Redkit redkit = Redkit.connect(cluster.url());
                TrackedReads reads = redkit.trackedReads(List.of("mine:"), listener)) {
            for (RedisServer master : cluster.masters()) {
                String tag = tagOn(master);
                heard.clear();
                master.command("MSET", "mine:{" + tag + "}a", "1", "mine:{" + tag + "}b", "1", "theirs:{" + tag + "}",
                        "1");
                reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
                assertThat(heard).as("on %s", master)
                        .containsExactlyInAnyOrder("key mine:{" + tag + "}a", "key mine:{" + tag + "}b");
            }
        }
    }

    @Test
    void aKilledRedirectConnectionIsAResetAndTrackingComesBackRedirectedToItsSuccessor() throws Exception {
        try (Redkit redkit = Redkit.connect(cluster.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            RedisServer master = cluster.masters().get(1);
            String killed = redirectIds(master).get(0);
            heard.clear();

            master.command("CLIENT", "KILL", "ID", killed);
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(Heard.REDIRECT_LOST));
            await().atMost(Duration.ofSeconds(10)).until(reads::tracking);
            assertThat(redirectIds(master)).hasSize(1).doesNotContain(killed);

            String key = keyOn(master);
            reads.get(key);
            heard.clear();
            master.command("SET", key, "1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
            assertThat(heard).containsExactly("key " + key);
        }
    }

    /** A key whose slot {@code master} serves. */
    private static String keyOn(RedisServer master) {
        return "k:{" + tagOn(master) + "}";
    }

    private static String tagOn(RedisServer master) {
        for (int i = 0; ; i++) {
            if (cluster.masterForKey("t" + i).port() == master.port()) {
                return "t" + i;
            }
        }
    }

    /** The ids of {@code master}'s subscribed connections: here, only redirect connections are. */
    private static List<String> redirectIds(RedisServer master) {
        List<String> ids = new ArrayList<>();
        for (String line : String.valueOf(master.command("CLIENT", "LIST", "TYPE", "pubsub")).split("\r?\n")) {
            for (String field : line.strip().split(" ")) {
                if (field.startsWith("id=")) {
                    ids.add(field.substring(3));
                }
            }
        }
        return ids;
    }
}
