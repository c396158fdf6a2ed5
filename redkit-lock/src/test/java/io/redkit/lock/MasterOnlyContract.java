package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.CommandLog;
import io.redkit.testing.Deployment;

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
        String clientName = CommandLog.uniqueClientName("master-only-test");
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(deployment.url()).clientName(clientName).build());
                Locks locks = Locks.create(redkit, LockConfig.builder().readFrom(ReadFrom.MASTER).build())) {
            redkit.reads(ReadFrom.REPLICA_PREFERRED).get("warm-the-replica-connection");
            try (CommandLog onReplicas = CommandLog.start(deployment.replicas());
                    CommandLog onMasters = CommandLog.start(deployment.masters())) {
                for (int i = 0; i < 50; i++) {
                    Lock lock = locks.lock("master-only-" + UUID.randomUUID());
                    Lease lease = lock.tryAcquire().orElseThrow();
                    assertThat(lock.tryAcquire()).isEmpty();
                    assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
                }
                assertThat(onReplicas.dataCommandsOf(clientName)).as("lock commands run on replicas").isEmpty();
                assertThat(scripts(onMasters, clientName)).isGreaterThanOrEqualTo(150);
            }
        }
    }

    private static long scripts(CommandLog log, String clientName) {
        return log.callsOf(clientName, "evalsha") + log.callsOf(clientName, "eval");
    }
}
