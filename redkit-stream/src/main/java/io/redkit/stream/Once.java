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
 * ({@link OnceConfig#leaseTtl()}): a redelivery that finds it is told {@link OnceResult.InProgress} (throw, so the
 * queue retries it later). After the work, {@code done} with the long TTL ({@link OnceConfig#doneTtl()}): a
 * redelivery that finds it is told {@link OnceResult.AlreadyDone} (return, so it is acknowledged).
 *
 * <p><b>The window, and what it does not cover.</b>
 * <ul>
 *   <li>A duplicate arriving after {@code doneTtl} runs the work again: size it above the longest time a message
 *       can come back (the stream's retention, a producer's retries).</li>
 *   <li>Work that throws deletes its own {@code running} marker (if still its own), so the retry runs it.</li>
 *   <li>A process that dies during the work leaves {@code running} until the lease expires; the message is then
 *       handed out again and runs. Nothing is lost, but the work may have run in part: the marker cannot make a
 *       multi-step effect atomic.</li>
 *   <li>A process that dies after the work and before {@code done} is written runs it twice. So does work
 *       longer than the lease. For money, keep the key in the same database transaction as the effect
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

    /** The configuration. */
    OnceConfig config();
}
