package io.redkit.lock.internal;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.lock.Fencing;
import io.redkit.lock.Lock;
import io.redkit.lock.LockConfig;
import io.redkit.lock.Locks;

/**
 * The locks of one {@link Redkit}: one watchdog thread runs every lease's extensions and loss signals (extensions
 * are asynchronous, so the thread never waits on Redis), and one subscription wakes waiters.
 */
public final class DefaultLocks implements Locks {

    private static final int MAX_NAME_LENGTH = 1024;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Redkit redkit;
    private final LockConfig config;
    private final KeySchema schema;
    private final WatchdogTimer watchdog;
    private final ReleaseSignals signals;
    private final LockMetrics metrics;

    /** Builds the locks; use {@link Locks#create}. */
    public DefaultLocks(Redkit redkit, LockConfig config) {
        this.redkit = redkit;
        this.config = config;
        this.schema = KeySchema.of(config.namespace());
        int instance = INSTANCES.incrementAndGet();
        this.watchdog = new WatchdogTimer("redkit-lock-watchdog-" + instance);
        this.signals = new ReleaseSignals(redkit.pubSub(), config.namespace() + ":released");
        this.metrics = new LockMetrics(redkit.meters(), redkit.config().name(), config.namespace(),
                config.tagLockNames());
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
        return new DefaultLock(this, name, schema.key(name), fencing);
    }

    @Override
    public LockConfig config() {
        return config;
    }

    Redkit redkit() {
        return redkit;
    }

    KeySchema schema() {
        return schema;
    }

    WatchdogTimer watchdog() {
        return watchdog;
    }

    ReleaseSignals signals() {
        return signals;
    }

    LockMetrics.Meters meters(String name) {
        return metrics.forLock(name);
    }

    @Override
    public void close() {
        signals.close();
        watchdog.close();
    }

    @Override
    public String toString() {
        return "Locks[" + config + "]";
    }
}
