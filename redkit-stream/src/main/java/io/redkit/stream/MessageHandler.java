package io.redkit.stream;

/**
 * Handles one message on a worker's thread. Returning normally acknowledges it (XACK, together with the other
 * successes of its batch); throwing leaves it pending, to be handed out again after a backoff, and after
 * {@link StreamConfig#maxDeliveries()} deliveries moves it to the dead-letter stream with the exception's text.
 * A handler is called again for a message it may already have handled (at-least-once): make its effect
 * idempotent, or guard it with {@link Once}.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface MessageHandler<T> {

    /** Handles {@code message}; an exception (or an interrupt at shutdown) leaves it unacknowledged. */
    void handle(Message<T> message) throws Exception;
}
