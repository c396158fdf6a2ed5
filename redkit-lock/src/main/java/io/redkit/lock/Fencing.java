package io.redkit.lock;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a lock's fencing tokens come from: none, a Redis counter in the lock's hash slot issued in the same script
 * as the acquisition, or an external strictly increasing source such as a PostgreSQL sequence.
 */
public final class Fencing {

    /** The kind of fencing. */
    public enum Mode {
        /** No token: {@link Lease#fencingToken()} throws. Cheapest; for locks that only save work. */
        NONE,
        /** {@code INCR} of {@code <lock key>:fence} atomically with {@code SET NX PX}. */
        REDIS_COUNTER,
        /** A {@link FencingTokenSource} asked after the {@code SET NX PX}, confirmed by an owner check. */
        EXTERNAL
    }

    private static final Fencing NONE = new Fencing(Mode.NONE, null);
    private static final Fencing REDIS_COUNTER = new Fencing(Mode.REDIS_COUNTER, null);

    private final Mode mode;
    private final FencingTokenSource source;

    private Fencing(Mode mode, FencingTokenSource source) {
        this.mode = mode;
        this.source = source;
    }

    /** No fencing tokens. */
    public static Fencing none() {
        return NONE;
    }

    /** Tokens from a Redis counter next to the lock, issued in the acquiring script (the default). */
    public static Fencing redisCounter() {
        return REDIS_COUNTER;
    }

    /**
     * Tokens from {@code source}, drawn after the {@code SET NX PX} and kept only if an owner check then finds the
     * lock still ours. So tokens follow acquisition order: a later holder acquired after that check, and drew
     * after it; a holder that stalled between its SET and its draw past its TTL fails the check and gets nothing.
     */
    public static Fencing external(FencingTokenSource source) {
        return new Fencing(Mode.EXTERNAL, Objects.requireNonNull(source, "fencing token source"));
    }

    /** The kind of fencing. */
    public Mode mode() {
        return mode;
    }

    /** The external source, for {@link Mode#EXTERNAL}. */
    public Optional<FencingTokenSource> source() {
        return Optional.ofNullable(source);
    }

    @Override
    public String toString() {
        return "Fencing[" + mode + "]";
    }
}
