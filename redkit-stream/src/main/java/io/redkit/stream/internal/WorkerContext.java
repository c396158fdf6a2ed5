package io.redkit.stream.internal;

import io.redkit.stream.MessageHandler;

/**
 * What one worker's pieces share: the queue, its own consumer name and handler, the failed messages it holds,
 * and how it is told to stop.
 *
 * @param rt the queue
 * @param consumer the consumer name it reads as
 * @param handler the user's handler
 * @param book the failed messages waiting for a retry, kept across reconnects
 * @param control stop, abort and the shutdown tally
 * @param <T> the payload type
 */
record WorkerContext<T>(QueueRuntime<T> rt, String consumer, MessageHandler<T> handler, RetryBook book,
        WorkerControl control) {
}
