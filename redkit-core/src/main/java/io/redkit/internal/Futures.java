package io.redkit.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for several background commands under one deadline, where none of them failing is fatal. */
final class Futures {

    private Futures() {
    }

    /**
     * Waits for every future until {@code timeout} has passed in all; returns the first failure (the cause of a
     * failed future, or a {@link TimeoutException} once time ran out), or {@code null} when all completed. An
     * interrupt ends the wait at once and is kept.
     */
    static Throwable awaitAll(List<? extends CompletableFuture<?>> pending, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable first = null;
        for (CompletableFuture<?> f : pending) {
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return e;
            } catch (ExecutionException e) {
                first = first != null ? first : e.getCause();
            } catch (TimeoutException e) {
                return first != null ? first : e;
            }
        }
        return first;
    }
}
