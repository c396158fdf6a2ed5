package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.lock.redlock.Redlock;
import io.redkit.lock.redlock.RedlockConfig;
import io.redkit.lock.redlock.RedlockLease;
import io.redkit.testing.RedisServer;
import io.redkit.testing.RedisServerExtension;

/** Redlock over five independent redis-servers: a quorum of three is enough, two are not. */
class RedlockIT {

    @RegisterExtension
    static final RedisServerExtension n1 = RedisServerExtension.standalone();
    @RegisterExtension
    static final RedisServerExtension n2 = RedisServerExtension.standalone();
    @RegisterExtension
    static final RedisServerExtension n3 = RedisServerExtension.standalone();
    @RegisterExtension
    static final RedisServerExtension n4 = RedisServerExtension.standalone();
    @RegisterExtension
    static final RedisServerExtension n5 = RedisServerExtension.standalone();

    private final List<Redkit> clients = new ArrayList<>();
    private List<RedisServer> servers;
    private Redlock redlock;

    @BeforeEach
    void connect() {
        servers = List.of(n1.server(), n2.server(), n3.server(), n4.server(), n5.server());
        for (RedisServer s : servers) {
            clients.add(Redkit.connect(s.url()));
        }
        redlock = Redlock.create(clients, RedlockConfig.builder().ttl(Duration.ofSeconds(10)).build());
    }

    @AfterEach
    void close() {
        clients.forEach(Redkit::close);
    }

    private long nodesHolding(String key) {
        return servers.stream().filter(RedisServer::isRunning).filter(s -> s.command("GET", key) != null).count();
    }

    @Test
    void allNodesUpAcquiresEverywhereAndReleasesEverywhere() {
        RedlockLease lease = redlock.tryAcquire("report-" + UUID.randomUUID()).orElseThrow();
        assertThat(redlock.quorum()).isEqualTo(3);
        assertThat(lease.nodesAcquired()).isEqualTo(5);
        assertThat(nodesHolding(lease.key())).isEqualTo(5);
        assertThat(lease.remaining()).isPositive().isLessThan(Duration.ofSeconds(10));
        assertThat(redlock.tryAcquire(lease.name())).as("a second holder finds no quorum").isEmpty();
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
        assertThat(nodesHolding(lease.key())).isZero();
    }

    @Test
    void twoOfFiveNodesKilledStillAcquires() {
        n1.kill();
        n2.kill();
        Optional<RedlockLease> lease = redlock.tryAcquire("report-" + UUID.randomUUID());
        assertThat(lease).isPresent();
        assertThat(lease.get().nodesAcquired()).isEqualTo(3);
        assertThat(lease.get().isValid()).isTrue();
        assertThat(lease.get().release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void threeOfFiveNodesKilledRefusesAndLeavesNoKeyBehind() {
        n1.kill();
        n3.kill();
        n5.kill();
        String name = "report-" + UUID.randomUUID();
        assertThat(redlock.tryAcquire(name)).isEmpty();
        assertThat(redlock.tryAcquire(name, Duration.ofMillis(300))).isEmpty();
        assertThat(nodesHolding("lock:{" + name + "}")).as("released on the nodes that had said yes").isZero();
    }

    @Test
    void quorumReachedAfterTheValidityRanOutIsRefused() {
        Redlock tight = Redlock.create(clients, RedlockConfig.builder().ttl(Duration.ofMillis(80))
                .nodeTimeout(Duration.ofMillis(50)).build());
        n1.pause(); // two frozen nodes cost a node timeout each: more than the whole TTL
        n2.pause();
        String name = "report-" + UUID.randomUUID();
        assertThat(tight.tryAcquire(name)).isEmpty();
        n1.resume();
        n2.resume();
        assertThat(nodesHolding("lock:{" + name + "}")).isZero();
    }

    @Test
    void minorityHeldByAnotherOwnerStillAllowsAQuorum() {
        String name = "report-" + UUID.randomUUID();
        n4.server().command("SET", "lock:{" + name + "}", "someone-else", "PX", "10000");
        n5.server().command("SET", "lock:{" + name + "}", "someone-else", "PX", "10000");
        RedlockLease lease = redlock.tryAcquire(name).orElseThrow();
        assertThat(lease.nodesAcquired()).isEqualTo(3);
        lease.release();
        assertThat(n4.server().command("GET", "lock:{" + name + "}")).isEqualTo("someone-else");
    }
}
