package io.redkit.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.slf4j.Logger;

import io.redkit.Outcome;
import io.redkit.RedisPubSub;
import io.redkit.RedkitException;

/** What the classic and the sharded pub/sub seams share: the subscription handle, the wait, the quiet run. */
final class PubSubSupport {

    private PubSubSupport() {
    }

    /** What both seams refuse before they connect: no channel, an empty one, or no listener. */
    static void checkSubscription(String channel, RedisPubSub.Listener listener) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(listener, "listener");
        if (channel.isEmpty()) {
            throw new IllegalArgumentException("channel must not be empty");
        }
    }

    /** A handle that runs {@code unsubscribe} on its first close only. */
    static RedisPubSub.Subscription subscription(String channel, Runnable unsubscribe) {
        return new RedisPubSub.Subscription() {
            private volatile boolean done;

            @Override
            public String channel() {
                return channel;
            }

            @Override
            public void close() {
                if (done) {
                    return;
                }
                done = true;
                unsubscribe.run();
            }
        };
    }

    /**
     * Waits for the server's confirmation of {@code command}; on a timeout the error says why when
     * {@code lastError} knows (a refused connection rather than a silent one).
     */
    static void await(String command, CompletableFuture<?> future, Duration timeout, Supplier<Throwable> lastError) {
        try {
            future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedkitException(command + " interrupted; outcome UNKNOWN", Outcome.UNKNOWN, e);
        } catch (TimeoutException e) {
            Throwable last = lastError.get();
            throw ExceptionTranslator.translate(command, last == null ? e : unwrap(last), timeout);
        } catch (ExecutionException e) {
            throw ExceptionTranslator.translate(command, e.getCause(), timeout);
        }
    }

    /** Runs a listener's or a reconnect action's code; what it throws is logged, never passed to Lettuce. */
    static void runQuietly(Runnable action, Logger log, String what) {
        try {
            action.run();
        } catch (RuntimeException e) {
            log.warn("{} failed", what, e);
        }
    }

    /**
     * Runs the reconnect actions (user code: a near cache's flush) off the event loop and outside the seam's lock,
     * then {@code done}: an action that calls Redis must not wait for the thread that would read its reply.
     */
    static void resync(List<Runnable> actions, Logger log, String what, Runnable done) {
        List<Runnable> snapshot = List.copyOf(actions);
        CompletableFuture.runAsync(() -> {
            try {
                snapshot.forEach(action -> runQuietly(action, log, what));
            } finally {
                done.run();
            }
        });
    }

    private static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
