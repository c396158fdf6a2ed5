package io.redkit.lab.bench.lock;

import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;
import io.redkit.lab.bench.Peers;

/**
 * Redisson's {@code RLock} ({@code tryLock(0, 10 s)}, then {@code unlock}) or {@code RFencedLock}
 * ({@code tryLockAndGetToken}), with Redisson's defaults. The lease time is explicit, so Redisson runs no
 * watchdog; Redisson ties a lock to the thread, which is why each caller keeps to its own thread and lock.
 */
final class RedissonLockContender implements Contender {

    private final boolean fenced;
    private RedissonClient redisson;

    RedissonLockContender(boolean fenced) {
        this.fenced = fenced;
    }

    @Override
    public String name() {
        return fenced ? "redisson-fenced" : "redisson";
    }

    @Override
    public void setup(BenchEnv env) {
        redisson = Redisson.create(Peers.redissonConfig(env));
    }

    @Override
    public void call(Caller caller) throws InterruptedException {
        String name = "bench:" + name() + ":" + LockBenchmark.lockName(caller.id());
        if (fenced) {
            var lock = redisson.getFencedLock(name);
            Long token = lock.tryLockAndGetToken(0, LockBenchmark.TTL_MILLIS, TimeUnit.MILLISECONDS);
            if (token == null) {
                throw new IllegalStateException("busy: " + name);
            }
            lock.unlock();
        } else {
            RLock lock = redisson.getLock(name);
            if (!lock.tryLock(0, LockBenchmark.TTL_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("busy: " + name);
            }
            lock.unlock();
        }
    }

    @Override
    public void close() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }
}
