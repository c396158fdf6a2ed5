package io.redkit;

import java.time.Duration;

/**
 * The bounded pool of dedicated connections, for what must not share the multiplexed one: blocking reads,
 * MULTI/EXEC, WATCH.
 *
 * @param maxSize the most connections open at once
 * @param maxIdle the most connections kept open while unused
 * @param maxWait how long a caller waits for a free connection before {@link PoolExhaustedException}
 */
public record DedicatedPoolConfig(int maxSize, int maxIdle, Duration maxWait) {

    /** Twenty blocked readers are plenty for one process; more usually means a leak. */
    public static final int DEFAULT_MAX_SIZE = 20;
    /** Half the maximum stays open so that a burst does not pay a connect per caller. */
    public static final int DEFAULT_MAX_IDLE = 10;
    /** A caller on the request path should not wait longer for a connection than for a command. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofMillis(300);

    /** The defaults: 10 idle, 20 at most, 300 ms wait. */
    public static final DedicatedPoolConfig DEFAULT =
            new DedicatedPoolConfig(DEFAULT_MAX_SIZE, DEFAULT_MAX_IDLE, DEFAULT_MAX_WAIT);

    /** Validates the sizes and the wait. */
    public DedicatedPoolConfig {
        if (maxSize < 1) {
            throw new IllegalArgumentException("dedicated pool maxSize must be at least 1, was " + maxSize);
        }
        if (maxIdle < 0 || maxIdle > maxSize) {
            throw new IllegalArgumentException(
                    "dedicated pool maxIdle must be 0-" + maxSize + " (maxSize), was " + maxIdle);
        }
        CommandProfile.requireNonNegative("dedicated pool maxWait", maxWait);
    }
}
