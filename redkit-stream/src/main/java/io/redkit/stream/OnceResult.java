package io.redkit.stream;

/**
 * What {@link Once#run} did.
 *
 * @param <R> the work's result type
 */
public sealed interface OnceResult<R> {

    /** The work ran now, and returned {@code value}. */
    record Ran<R>(R value) implements OnceResult<R> {
    }

    /** The key was done within the window: the work did not run (acknowledge the duplicate). */
    record AlreadyDone<R>() implements OnceResult<R> {
    }

    /**
     * Another delivery of the key is running it now (or died within its lease): retry later, at the earliest
     * when {@code retryAfter} has passed, the time left of the holder's lease (renewed while its work runs).
     * Inside a queue handler, throw {@link RetryLaterException} with it (as {@link Once#handler} does), so that
     * waiting is not counted as a failed delivery.
     */
    record InProgress<R>(java.time.Duration retryAfter) implements OnceResult<R> {
    }
}
