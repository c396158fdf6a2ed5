package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;
import io.redkit.Redkit;
import io.redkit.testing.Deployment;
import io.redkit.testing.RedisServer;

/**
 * Locks read and write the master only (DESIGN §4.12), even on a client whose cache reads from replicas: a replica
 * lags, and could call a lock free that was just taken.
 */
abstract class MasterOnlyContract {

    private final Deployment deployment;

    MasterOnlyContract(Deployment deployment) {
        this.deployment = deployment;
    }

    @Test
    void lockCommandsNeverReachAReplica() {
        try (Redkit redkit = Redkit.connect(deployment.url());
                Locks locks = Locks.create(redkit, LockConfig.builder().readFrom(ReadFrom.MASTER).build())) {
            redkit.reads(ReadFrom.REPLICA_PREFERRED).get("warm-the-replica-connection");
            long replicaScriptsBefore = scripts(deployment.replicas());
            long masterScriptsBefore = scripts(deployment.masters());
            for (int i = 0; i < 50; i++) {
                Lock lock = locks.lock("master-only-" + UUID.randomUUID());
                Lease lease = lock.tryAcquire().orElseThrow();
                assertThat(lock.tryAcquire()).isEmpty();
                assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
            }
            assertThat(scripts(deployment.replicas()) - replicaScriptsBefore).as("lock scripts run on replicas")
                    .isZero();
            assertThat(scripts(deployment.masters()) - masterScriptsBefore).isGreaterThanOrEqualTo(150);
        }
    }

    private static long scripts(List<RedisServer> servers) {
        long calls = 0;
        for (RedisServer server : servers) {
            for (String line : String.valueOf(server.command("INFO", "commandstats")).split("\r?\n")) {
                if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                    String rest = line.substring(line.indexOf("calls=") + "calls=".length());
                    calls += Long.parseLong(rest.substring(0, rest.indexOf(',')));
                }
            }
        }
        return calls;
    }
}
