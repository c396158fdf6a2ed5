package io.redkit.lab.bench.lock;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;
import io.redkit.lock.Fencing;
import io.redkit.lock.Lease;
import io.redkit.lock.Lock;
import io.redkit.lock.LockConfig;
import io.redkit.lock.Locks;
import io.redkit.lock.ReleaseResult;

/** redkit's {@code Lock} with its defaults (watchdog on), plain or with the Redis fence counter. */
final class RedkitLockContender implements Contender {

    private final boolean fenced;
    private final ConcurrentMap<Integer, Lock> byCaller = new ConcurrentHashMap<>();
    private Redkit redkit;
    private Locks locks;

    RedkitLockContender(boolean fenced) {
        this.fenced = fenced;
    }

    @Override
    public String name() {
        return fenced ? "redkit-fenced" : "redkit";
    }

    @Override
    public void setup(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-" + name()).build());
        locks = Locks.create(redkit, LockConfig.builder().namespace("bench." + name())
                .ttl(Duration.ofMillis(LockBenchmark.TTL_MILLIS))
                .fencing(fenced ? Fencing.redisCounter() : Fencing.none()).build());
    }

    @Override
    public void call(Caller caller) {
        Lock lock = byCaller.computeIfAbsent(caller.id(), id -> locks.lock(LockBenchmark.lockName(id)));
        Lease lease = lock.tryAcquire().orElseThrow(() -> new IllegalStateException("busy: " + lock.key()));
        if (lease.release() != ReleaseResult.RELEASED) {
            throw new IllegalStateException("lost: " + lock.key());
        }
    }

    @Override
    public void close() {
        if (locks != null) {
            locks.close();
        }
        if (redkit != null) {
            redkit.close();
        }
    }
}
