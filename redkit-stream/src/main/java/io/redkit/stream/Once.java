package io.redkit.stream;

import java.util.Objects;
import java.util.concurrent.Callable;

import io.redkit.Redkit;
import io.redkit.stream.internal.DefaultOnce;

/**
 * Effectively-once handling on top of an at-least-once queue: runs a piece of work at most once per message key
 * within a window, by marking the key in Redis ({@code SET NX PX}).
 *
 * <p>The marker is written in two steps. Before the work, {@code running} with a short lease
 * ({@link OnceConfig#leaseTtl()}) and a token of this run, renewed every third of the lease while the work runs: a
 * redelivery that finds it is told {@link OnceResult.InProgress} with the time left (throw
 * {@link RetryLaterException}, so the queue retries it later without counting a failure; {@link #handler} does).
 * After the work, {@code done} with the long TTL ({@link OnceConfig#doneTtl()}): a redelivery that finds it is
 * told {@link OnceResult.AlreadyDone} (return, so it is acknowledged). When the reply to the marking is lost (a
 * timeout: it may have run), the marking is sent again with the same token and settles it: ours, done, or
 * someone else's.
 *
 * <p><b>The window, and what it does not cover.</b>
 * <ul>
 *   <li>A duplicate arriving after {@code doneTtl} runs the work again: size it above the longest time a message
 *       can come back (the stream's retention, a producer's retries).</li>
 *   <li>Work that throws deletes its own {@code running} marker (if still its own), so the retry runs it.</li>
 *   <li>A process that dies during the work leaves {@code running} until the lease expires; the message is then
 *       handed out again and runs. Nothing is lost, but the work may have run in part: the marker cannot make a
 *       multi-step effect atomic.</li>
 *   <li>A process that dies after the work and before {@code done} is written runs it twice. So does a process
 *       paused longer than the lease (its renewals stop with it). For money, keep the key in the same database transaction as the effect
 *       (a unique constraint), as the reference service does; this helper saves duplicate work, it does not
 *       prove its absence.</li>
 *   <li>The marker lives in Redis: a failover that loses the last writes can forget it.</li>
 * </ul>
 */
public interface Once {

    /** The helper for {@code config}. */
    static Once create(Redkit redkit, OnceConfig config) {
        return new DefaultOnce(Objects.requireNonNull(redkit, "redkit"), Objects.requireNonNull(config, "config"));
    }

    /**
     * The helper for the messages of {@code queue}: scope the queue's name, lease its visibility timeout (a
     * handler longer than that is handed out twice anyway).
     */
    static Once forQueue(Redkit redkit, StreamQueue<?> queue) {
        return create(redkit, OnceConfig.builder(queue.config().name())
                .leaseTtl(queue.config().visibilityTimeout()).build());
    }

    /**
     * Runs {@code work} unless {@code key} was done within the window or is being done now.
     *
     * @param key the message key ({@link Message#key()}: the same on a producer's retry), 1-200 characters
     * @throws Exception whatever {@code work} threw, after its marker was removed
     */
    <R> OnceResult<R> run(String key, Callable<R> work) throws Exception;

    /**
     * A queue handler that runs {@code work} once per {@link Message#key()}: a duplicate of a key already done is
     * acknowledged without running, and one whose key another delivery is running now is postponed with
     * {@link RetryLaterException} (not counted against {@link StreamConfig#maxDeliveries()}).
     */
    default <T> MessageHandler<T> handler(MessageHandler<T> work) {
        Objects.requireNonNull(work, "work");
        return message -> {
            OnceResult<Void> result = run(message.key(), () -> {
                work.handle(message);
                return null;
            });
            if (result instanceof OnceResult.InProgress<Void> busy) {
                throw new RetryLaterException(busy.retryAfter(), "key '" + message.key() + "' is being handled by"
                        + " another delivery");
            }
        };
    }

    /** The configuration. */
    OnceConfig config();
}
