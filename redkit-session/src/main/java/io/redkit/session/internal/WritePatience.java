package io.redkit.session.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import io.redkit.RedkitClock;
import io.redkit.session.SessionConflictException;

/**
 * How long a read-modify-write that keeps losing to other writers of the session (an update by function, a
 * rotation) goes on trying before it gives up. A loser learns the stored value in the same round trip and tries
 * again with it at once; losing again, it pauses at random up to a ceiling that doubles from
 * {@link #FIRST_BACKOFF_NANOS} to {@link #MAX_BACKOFF_NANOS} and reads the session afresh, so that writers that met
 * stop meeting in step. 16 threads incrementing one session's counter at once all get through, well within it.
 */
final class WritePatience {

    static final Duration WRITE_PATIENCE = Duration.ofSeconds(5);
    private static final long FIRST_BACKOFF_NANOS = 20_000;
    private static final long MAX_BACKOFF_NANOS = 5_000_000;

    private final RedkitClock clock;
    private final String namespace;
    private final String operation;
    private final long deadline;

    private WritePatience(RedkitClock clock, String namespace, String operation) {
        this.clock = clock;
        this.namespace = namespace;
        this.operation = operation;
        this.deadline = clock.nanoTime() + WRITE_PATIENCE.toNanos();
    }

    /** The patience of one read-modify-write of {@code operation}, running from now. */
    static WritePatience start(RedkitClock clock, String namespace, String operation) {
        return new WritePatience(clock, namespace, operation);
    }

    /**
     * After {@code attempts} lost attempts: throws {@link SessionConflictException} once the patience is spent,
     * else pauses at random before the next one.
     */
    void afterLosing(int attempts) {
        if (clock.nanoTime() - deadline > 0) {
            throw new SessionConflictException(namespace, operation, attempts, WRITE_PATIENCE);
        }
        backOff(attempts);
    }

    /** A random pause before another attempt, so that writers of one session stop meeting in step. */
    private static void backOff(int attempt) {
        long ceiling = Math.min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << Math.min(attempt - 1, 20));
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(ceiling + 1));
    }
}
