package io.redkit.lock.internal;

import java.util.concurrent.Executor;

import io.redkit.RedisOps;
import io.redkit.RedkitClock;
import io.redkit.lock.LockConfig;

/**
 * What a lock and its leases need from the {@link DefaultLocks} that made them, in one place instead of a
 * reference back to their parent.
 *
 * @param config the locks' configuration
 * @param commands the request profile, for acquire and release
 * @param background the background profile, for the watchdog's extensions
 * @param clock the client's time source
 * @param watchdog the timers and the watchdog thread
 * @param callbacks where loss callbacks and {@code lost()} completions run
 * @param releaseChannel the pub/sub channel a release wakes waiters on
 * @param replicas how acquisitions and extensions are confirmed by replicas (or not)
 * @param confirmations where confirmed extensions run, since their wait would block the watchdog's thread; null
 *     when {@code replicas} is inactive
 */
record LockRuntime(LockConfig config, RedisOps commands, RedisOps background, RedkitClock clock, Watchdog watchdog,
        Executor callbacks, String releaseChannel, ReplicaConfirmation replicas, Executor confirmations) {
}
