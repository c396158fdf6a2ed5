package io.redkit.lock.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.common.KeyValues;
import io.redkit.KeySchema;
import io.redkit.ObservedOperation;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.lock.Fencing;
import io.redkit.lock.Lock;
import io.redkit.lock.LockConfig;
import io.redkit.lock.LockScripts;
import io.redkit.lock.Locks;

/**
 * The locks of one {@link Redkit}: one watchdog thread runs every lease's extensions and loss signals (extensions
 * are asynchronous, so the thread never waits on Redis), loss callbacks run on a callback executor of their own,
 * and one subscription wakes waiters.
 */
public final class DefaultLocks implements Locks {

    private static final int MAX_NAME_LENGTH = 1024;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final LockConfig config;
    private final KeySchema schema;
    private final Watchdog watchdog;
    private final ExecutorService ownCallbacks;
    private final ExecutorService confirmations;
    private final ReleaseSignals signals;
    private final LockMetrics metrics;
    private final LockRuntime runtime;

    /** Builds the locks; use {@link Locks#create}. */
    public DefaultLocks(Redkit redkit, LockConfig config) {
        this.config = config;
        redkit.scripts().register(LockScripts.ALL);
        this.schema = KeySchema.of(config.namespace());
        int instance = INSTANCES.incrementAndGet();
        this.watchdog = new Watchdog(redkit.timer(), "redkit-lock-watchdog-" + instance);
        this.ownCallbacks = config.callbackExecutor() == null ? daemonPool("redkit-lock-callbacks-" + instance) : null;
        String channel = config.namespace() + ":released";
        this.signals = new ReleaseSignals(redkit.pubSub(), channel, redkit.clock());
        this.metrics = new LockMetrics(redkit.meters(), redkit.config().name(), config.namespace(),
                config.tagLockNames(), new ObservedOperation(redkit, "redkit.lock.acquire",
                        "lock acquire " + config.namespace(), KeyValues.of("namespace", config.namespace())));
        ReplicaConfirmation replicas = ReplicaConfirmation.of(redkit, config);
        this.confirmations = replicas.active()
                ? confirmationPool("redkit-lock-replicas-" + instance, redkit.config().dedicatedPool().maxSize())
                : null;
        this.runtime = new LockRuntime(config, redkit.commands(), extensionOps(redkit, config), redkit.clock(),
                watchdog, neverRejecting(ownCallbacks != null ? ownCallbacks : config.callbackExecutor()), channel,
                replicas, confirmations);
    }

    /** A callback refused by its executor (shut down by its owner) runs on the caller rather than never. */
    private static Executor neverRejecting(Executor executor) {
        return task -> {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                task.run();
            }
        };
    }

    /*
     * The background profile, each attempt capped at what is left of the validity when the extension is sent
     * (two thirds of the TTL, less the drift and a tick): a reply later than that is useless, the validity timer
     * has signalled the loss by then, and one that comes sooner still saves the lease on a slow moment.
     */
    private static RedisOps extensionOps(Redkit redkit, LockConfig config) {
        RedisOps background = redkit.background();
        Duration timeout = background.profile().timeout();
        Duration left = config.ttl().multipliedBy(2).dividedBy(3).minus(config.clockDrift())
                .minusNanos(redkit.timer().tickNanos());
        return background.withTimeout(timeout.compareTo(left) < 0 ? timeout : left);
    }

    /*
     * Callbacks are user code of any speed: a cached pool gives each one a thread when the others are busy, so a
     * slow callback delays neither the watchdog nor runLocked's interrupt of another lease.
     */
    private static ExecutorService daemonPool(String prefix) {
        AtomicInteger threads = new AtomicInteger();
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, prefix + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /*
     * Confirmed extensions each hold a dedicated connection while their WAIT blocks: no more threads than the pool
     * has connections (a thread beyond that could only wait for one), the rest queued. An extension that waits
     * too long in the queue is simply not confirmed in time, which the lease's validity already accounts for.
     */
    private static ExecutorService confirmationPool(String prefix, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Override
    public Lock lock(String name) {
        return lock(name, config.fencing());
    }

    @Override
    public Lock lock(String name, Fencing fencing) {
        Objects.requireNonNull(fencing, "fencing");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("lock name must not be null or blank, was '" + name + "'");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("lock name must be at most " + MAX_NAME_LENGTH + " characters, was "
                    + name.length());
        }
        if (watchdog.isClosed()) {
            throw new IllegalStateException("Locks already closed");
        }
        // The name is the whole identity: lock:{job:42} stays lock:{job:42}, as a Go or Node service writes it.
        String key = schema.nameKey(name);
        return new DefaultLock(runtime, signals, metrics.forLock(name), name, key, schema.child(key, "waiting"),
                schema.child(key, "fence"), fencing);
    }

    @Override
    public LockConfig config() {
        return config;
    }

    @Override
    public void close() {
        signals.close();
        watchdog.close();
        if (ownCallbacks != null) {
            // Callbacks already queued still run; one submitted from now on runs on its caller.
            ownCallbacks.shutdown();
        }
        if (confirmations != null) {
            confirmations.shutdown(); // an extension in flight finishes; its lease is not watched any more
        }
    }

    @Override
    public String toString() {
        return "Locks[" + config + "]";
    }
}
