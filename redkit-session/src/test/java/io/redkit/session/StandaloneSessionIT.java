package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link SessionContract} on one real redis-server, plus a killed server. */
class StandaloneSessionIT extends SessionContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneSessionIT() {
        super(redis);
    }

    @Test
    void killedRedisFailsClosedAtOnceAndComesBackReady() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        Session<Account> s = store.create(user(), new Account("Ada", List.of("user")));
        redis.get().kill();

        long start = System.nanoTime();
        assertThatThrownBy(() -> store.load(s.id())).isInstanceOf(SessionStoreUnavailableException.class)
                .hasMessageContaining("sessions unavailable");
        long failedAfter = System.nanoTime() - start;
        System.out.printf("[figures] %s server killed: load failed closed after %.2f ms%n", getClass().getSimpleName(),
                failedAfter / 1e6);
        assertThat(Duration.ofNanos(failedAfter)).isLessThan(Duration.ofMillis(300));
        assertThat(store.health().status()).isEqualTo(SessionHealth.Status.NOT_READY);

        redis.healAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.health().isReady());
        assertThatCode(() -> store.load(s.id())).doesNotThrowAnyException();
    }
}
