package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;
import io.redkit.Redkit;
import io.redkit.testing.CommandLog;
import io.redkit.testing.Deployment;
import io.redkit.testing.RedisServer;

/**
 * A cache may read from replicas (DESIGN §4.12): hits land on replicas, fills and invalidations on the master,
 * and a read after an invalidation is stale for no longer than the replication lag, which this suite measures.
 */
abstract class ReplicaReadsContract extends CacheFixture {

    ReplicaReadsContract(Deployment deployment) {
        super(deployment);
    }

    @Test
    void hitsLandOnReplicasAndFillsOnTheMaster() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.readFrom(ReadFrom.REPLICA_PREFERRED));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ids.add("r" + i);
            source.rows.put("r" + i, "v" + i);
        }
        assertThat(cache.getAll(ids)).hasSize(50);
        awaitReplicated(ids);
        long replicaReads;
        long masterReads;
        try (CommandLog onReplicas = CommandLog.start(deployment.replicas());
                CommandLog onMasters = CommandLog.start(deployment.masters())) {
            for (String id : ids) {
                assertThat(cache.get(id)).contains(source.rows.get(id));
            }
            assertThat(cache.getAll(ids)).hasSize(50);
            replicaReads = reads(onReplicas);
            masterReads = reads(onMasters);
        }
        System.out.printf("[figures] %s 50 GETs and a getAll of 50 with REPLICA_PREFERRED: %d GET/MGET calls on"
                + " replicas, %d on masters%n", getClass().getSimpleName(), replicaReads, masterReads);
        assertThat(replicaReads).isGreaterThanOrEqualTo(51);
        assertThat(masterReads).isZero();
        assertThat(source.loads.get() + source.batchLoads.get()).as("every read after the fill was a hit")
                .isEqualTo(1);
    }

    @Test
    void readAfterAnInvalidationIsStaleForNoLongerThanTheReplicationLag() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.readFrom(ReadFrom.REPLICA_PREFERRED));
        long worst = 0;
        int staleReads = 0;
        for (int round = 0; round < 20; round++) {
            String id = "s" + round;
            source.rows.put(id, "old");
            assertThat(cache.get(id)).contains("old");
            awaitReplicated(List.of(id));
            source.rows.put(id, "new");
            long invalidated = System.nanoTime();
            cache.invalidate(id);
            while (!cache.get(id).orElseThrow().equals("new")) {
                staleReads++;
            }
            worst = Math.max(worst, System.nanoTime() - invalidated);
        }
        System.out.printf("[figures] %s after an invalidation, a replica served the old value %d times in 20 rounds;"
                + " the new value was read at most %.2f ms after it%n", getClass().getSimpleName(), staleReads,
                worst / 1e6);
        assertThat(Duration.ofNanos(worst)).isLessThan(Duration.ofSeconds(1));
    }

    /** Waits until every replica has applied what its master had written when this was called. */
    void awaitReplicated(List<String> ids) {
        Map<Integer, Long> written = new java.util.HashMap<>();
        for (RedisServer master : deployment.masters()) {
            written.put(master.port(), field(master, "master_repl_offset"));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> deployment.replicas().stream().allMatch(replica ->
                field(replica, "master_repl_offset") >= written.getOrDefault((int) field(replica, "master_port"), 0L)));
    }

    private static long field(RedisServer server, String name) {
        for (String line : String.valueOf(server.command("INFO", "replication")).split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).strip());
            }
        }
        throw new IllegalStateException("no " + name + " in INFO replication of " + server);
    }

    private long reads(CommandLog log) {
        Map<String, Long> sent = log.dataCommandsOf(clientName);
        return sent.getOrDefault("get", 0L) + sent.getOrDefault("mget", 0L);
    }
}
