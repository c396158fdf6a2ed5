package io.redkit.lock;

import java.time.Duration;

import io.redkit.Validate;

/**
 * How long one acquisition may, and must, hold its lock: the bounds of a scheduled job's run (ShedLock's
 * {@code lockAtMostFor} and {@code lockAtLeastFor}). The key lives {@code atMost} after the acquisition and no
 * watchdog extends it: only its holder may, explicitly ({@link Lease#extend(LeaseBounds)}), so a holder that hangs
 * keeps the lock no longer than that. A release sooner than {@code atLeast} after the acquisition does not delete
 * the key: it shortens it, owner-checked, to expire then, so another instance whose clock or scheduler fires a
 * little later finds the tick already taken.
 *
 * @param atMost the key's time to live, the hard upper bound of the hold: {@link #MIN_AT_MOST} to
 *     {@link LockConfig#MAX_DURATION}
 * @param atLeast how long after the acquisition the key outlives an early release: zero up to {@code atMost}
 */
public record LeaseBounds(Duration atMost, Duration atLeast) {

    /**
     * The shortest {@code atMost}: {@link LockConfig#MIN_TTL}, as for any lease that only expires. Its validity
     * timer fires on a 10 ms tick and signals loss a tick early, so a shorter lease would be lost as soon as taken.
     */
    public static final Duration MIN_AT_MOST = LockConfig.MIN_TTL;

    /**
     * Validates both, naming the bad one.
     *
     * @throws IllegalArgumentException when {@code atMost} is below {@link #MIN_AT_MOST} or above the maximum, {@code atLeast} is
     *     negative, or {@code atLeast} is longer than {@code atMost}
     */
    public LeaseBounds {
        Validate.within("atMost", atMost, MIN_AT_MOST, LockConfig.MAX_DURATION);
        Validate.nonNegative("atLeast", atLeast, LockConfig.MAX_DURATION);
        if (atLeast.compareTo(atMost) > 0) {
            throw new IllegalArgumentException("atLeast (" + atLeast + ") must not be longer than atMost (" + atMost
                    + "): the key would have to outlive its own bound");
        }
    }

    /** The local validity's allowance for clock drift: 2 ms + 1% of {@code atMost}, as {@link LockConfig}'s default. */
    public Duration clockDrift() {
        return LockConfig.defaultDrift(atMost);
    }

    /** Held at most {@code atMost}, and given back as soon as it is released. */
    public static LeaseBounds atMost(Duration atMost) {
        return new LeaseBounds(atMost, Duration.ZERO);
    }

    /** Held at most {@code atMost}, and kept at least {@code atLeast} after the acquisition. */
    public static LeaseBounds of(Duration atMost, Duration atLeast) {
        return new LeaseBounds(atMost, atLeast);
    }
}
