package io.redkit.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.Idempotency;
import io.redkit.RedisScript;
import io.redkit.RedkitTimer;
import io.redkit.ScriptResult;

/**
 * Keeps the fill leases of a load in progress alive: extends them every third of the lease TTL until the load
 * ends, for at most {@link #KEEP_ALIVE_LEASES} lease lifetimes (a minute at the default 5 s lease): a loader that
 * hangs must not hold the key's fill for ever, after that the lease expires and another instance may fill. An
 * extension that finds its lease gone (invalidated) stops for that lease: the write-back will be refused, as it
 * must. The client's timer only triggers it; the scripts are sent from the common pool, since a batch may hold many
 * leases and the timer thread also runs the lock watchdogs and command deadlines.
 */
final class LeaseKeeper {

    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

    static final RedisScript<Long> EXTEND =
            RedisScript.fromResource(LeaseKeeper.class, "/io/redkit/cache/extend-lease.lua", ScriptResult.INTEGER,
                    Idempotency.IDEMPOTENT);
    /** How many lease lifetimes a running load keeps its lease alive at most. */
    static final int KEEP_ALIVE_LEASES = 12;

    private final String cache;
    private final GuardedRedis redis;
    private final RedkitTimer timer;
    private final byte[] leaseMillis;
    private final long everyNanos;

    LeaseKeeper(String cache, GuardedRedis redis, RedkitTimer timer, Duration leaseTtl, byte[] leaseMillis) {
        this.cache = cache;
        this.redis = redis;
        this.timer = timer;
        this.leaseMillis = leaseMillis;
        this.everyNanos = leaseTtl.toNanos() / 3;
    }

    /** Keeps {@code leases} (lease key to token) alive until the returned handle is closed. */
    Kept keep(Map<String, byte[]> leases) {
        return new Kept(leases);
    }

    /** The leases of one load, kept alive until closed. */
    final class Kept implements AutoCloseable {

        private final Map<String, byte[]> leases;
        private int extensionsLeft = KEEP_ALIVE_LEASES * 3;
        private volatile RedkitTimer.Scheduled next;
        private volatile boolean done;

        private Kept(Map<String, byte[]> leases) {
            this.leases = new ConcurrentHashMap<>(leases);
            if (!leases.isEmpty()) {
                schedule();
            }
        }

        private void schedule() {
            if (extensionsLeft-- <= 0) {
                return;
            }
            try {
                next = timer.schedule(() -> ForkJoinPool.commonPool().execute(this::extend), everyNanos);
            } catch (RejectedExecutionException stopped) {
                // The client is closing: the leases run out by themselves.
            }
        }

        /** Runs on the common pool; it only sends. */
        private void extend() {
            if (done) {
                return;
            }
            List<String> keys = new ArrayList<>(leases.keySet());
            for (String lease : keys) {
                byte[] token = leases.get(lease);
                try {
                    redis.master().evalAsync(EXTEND, List.of(lease), token, leaseMillis).whenComplete((ok, e) -> {
                        if (e == null && ok == 0) {
                            leases.remove(lease); // invalidated meanwhile: the fill will be refused
                        }
                    });
                } catch (RuntimeException e) {
                    log.debug("cache '{}': lease extension not sent: {}", cache, e.toString());
                }
            }
            if (!leases.isEmpty()) {
                schedule();
            }
        }

        @Override
        public void close() {
            done = true;
            RedkitTimer.Scheduled scheduled = next;
            if (scheduled != null) {
                scheduled.cancel();
            }
        }
    }
}
