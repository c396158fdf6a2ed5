package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An instance extension field gives every test method its own fresh server. */
class PerMethodExtensionIT {

    private static final Set<Long> PIDS = ConcurrentHashMap.newKeySet();

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    @RepeatedTest(3)
    void eachTestGetsAnEmptyServerOfItsOwn() {
        assertThat(redis.command("DBSIZE")).isEqualTo(0L);
        redis.command("SET", "k", "v");
        assertThat(PIDS.add(redis.server().pid())).isTrue();
    }

    @AfterAll
    static void serversWereClosed() {
        assertThat(PIDS).hasSize(3).allMatch(pid -> ProcessHandle.of(pid).isEmpty());
    }
}
