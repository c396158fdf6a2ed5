package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.RedkitException;
import io.redkit.lock.jdbc.PostgresSequenceTokens;
import io.redkit.testing.PostgresExtension;
import io.redkit.testing.RedisServerExtension;

/**
 * The strict token source: a PostgreSQL sequence selected per lock keeps rising where the Redis counter, rolled
 * back as by a failover to a replica that missed the last INCR, hands out a token twice.
 */
class StrictFencingIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @RegisterExtension
    static final PostgresExtension pg = PostgresExtension.create();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private Locks locks() {
        Redkit redkit = Redkit.connect(redis.url());
        Locks locks = Locks.create(redkit, LockConfig.builder().ttl(Duration.ofSeconds(5)).build());
        opened.add(locks);
        opened.add(redkit);
        return locks;
    }

    @Test
    void rolledBackRedisCounterRepeatsATokenWhileThePostgresSequenceDoesNot() throws Exception {
        Locks locks = locks();
        PostgresSequenceTokens tokens = PostgresSequenceTokens.of(pg.dataSource(), "job_fence").createIfMissing();
        Lock redisFenced = locks.lock("job-" + System.nanoTime());
        Lock strict = locks.lock(redisFenced.name() + "-strict", Fencing.external(tokens));

        List<Long> redisTokens = new ArrayList<>();
        List<Long> strictTokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            redisTokens.add(acquireAndRelease(redisFenced));
            strictTokens.add(acquireAndRelease(strict));
        }
        // A failover to a replica that had not seen the last INCR: the counter is one step behind.
        redis.command("SET", redisFenced.key() + ":fence", Long.toString(redisTokens.get(2) - 1));
        redisTokens.add(acquireAndRelease(redisFenced));
        strictTokens.add(acquireAndRelease(strict));

        assertThat(redisTokens.get(3)).as("the Redis counter issues the last token again")
                .isEqualTo(redisTokens.get(2));
        assertThat(strictTokens).isSorted().doesNotHaveDuplicates();
        assertThat(strictTokens.get(3)).isEqualTo(pg.queryLong("SELECT last_value FROM job_fence"));
        assertThat(redis.command("EXISTS", strict.key() + ":fence")).as("no Redis counter for the strict lock")
                .isEqualTo(0L);
    }

    @Test
    void noTokenMeansNoLock() {
        Locks locks = locks();
        PostgresSequenceTokens missing = PostgresSequenceTokens.of(pg.dataSource(), "no_such_sequence");
        Lock lock = locks.lock("job-" + System.nanoTime(), Fencing.external(missing));

        assertThatThrownBy(lock::tryAcquire).isInstanceOf(RedkitException.class)
                .hasMessageContaining("no_such_sequence").hasMessageContaining("not acquired");
        assertThat(redis.command("EXISTS", lock.key())).isEqualTo(0L);
        assertThatThrownBy(() -> PostgresSequenceTokens.of(pg.dataSource(), "x'; DROP"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sequence");
    }

    private static long acquireAndRelease(Lock lock) {
        Lease lease = lock.tryAcquire().orElseThrow();
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
        return lease.fencingToken();
    }
}
