package io.redkit.lab.bench.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.lab.bench.Ceiling;
import io.redkit.lab.bench.Contender;
import io.redkit.lock.LockScripts;

/**
 * {@code bench lock}: acquire + release cycles. Each caller cycles on a lock of its own (no contention: this
 * measures what one uncontended lock costs, not queueing), with a 10 s TTL, through redkit's {@code Lock}
 * (plain and fenced), Redisson's {@code RLock} ({@code tryLock(0, 10 s)}/{@code unlock}) and {@code RFencedLock},
 * and raw Lettuce running redkit's own acquire and release scripts by EVALSHA. The ceiling is redis-benchmark
 * running the acquire script and then the release script on held locks, combined per cycle.
 */
public final class LockBenchmark implements Benchmark {

    static final long TTL_MILLIS = 10_000;

    @Override
    public String name() {
        return "lock";
    }

    @Override
    public String description() {
        return "acquire + release cycles, one uncontended lock per caller, TTL 10 s: redkit Lock (plain, fenced) vs"
                + " Redisson RLock and RFencedLock vs raw Lettuce EVALSHA of the same scripts";
    }

    @Override
    public List<Contender> contenders(String op) {
        return List.of(new RedkitLockContender(false), new RedkitLockContender(true), new RedissonLockContender(false),
                new RedissonLockContender(true), new LettuceScriptContender());
    }

    /** Loads the acquire script, so that the ceiling's EVALSHA finds it. */
    @Override
    public void prepare(String op, BenchEnv env) {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().scriptLoad(LockScripts.ACQUIRE.source());
            c.sync().scriptLoad(LockScripts.RELEASE.source());
        } finally {
            client.shutdown();
        }
    }

    /**
     * A cycle is two scripts, so the ceiling is two runs, combined as the time the server needs for both (see
     * {@link Ceiling}): the acquire script on random keys with a 10 ms TTL, so that keys free themselves (as
     * redis-benchmark never releases) and nearly every call takes the success path; then {@link ReleaseStep}.
     */
    @Override
    public Optional<Ceiling> ceiling(String op, BenchEnv env) {
        return Optional.of(Ceiling.cycle(
                Ceiling.fixed(List.of("-r", "100000", "EVALSHA", LockScripts.ACQUIRE.sha1(), "2",
                        "bench:lock:{__rand_int__}", "bench:lock:{__rand_int__}:waiting", "owner", "10", "0")),
                new ReleaseStep()));
    }

    @Override
    public List<Aim> aims() {
        List<Aim> aims = new ArrayList<>(List.of(new Aim("redkit", "redisson", 64, 1.5),
                new Aim("redkit", CEILING, 64, 0.7)));
        aims.addAll(Aim.againstRaw("redkit", LettuceScriptContender.NAME));
        return aims;
    }

    /** The lock name of one caller. */
    static String lockName(int caller) {
        return "bench-" + caller;
    }
}
