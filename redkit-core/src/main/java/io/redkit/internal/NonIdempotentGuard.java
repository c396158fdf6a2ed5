package io.redkit.internal;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.redkit.Outcome;
import io.redkit.RedisUnavailableException;

/**
 * Stops Lettuce from sending a non-idempotent command twice. After a dropped connection Lettuce re-sends every
 * command still waiting for its reply once it has reconnected (at-least-once); for INCR or XADD whose first copy
 * may already have run, that is a blind retry. Lettuce skips commands that are already complete when it re-sends,
 * so on every disconnect this completes the non-idempotent ones still in flight as "outcome unknown". The
 * disconnect listener runs on the event loop inside {@code channelInactive}, before any reconnect can happen.
 */
public final class NonIdempotentGuard {

    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();

    /** Watches {@code future} until it completes. */
    public void track(CompletableFuture<?> future) {
        inFlight.add(future);
        future.whenComplete((v, e) -> inFlight.remove(future));
    }

    /** Fails every watched command: its connection closed before the reply came. */
    public void connectionLost() {
        for (CompletableFuture<?> future : inFlight) {
            future.completeExceptionally(new RedisUnavailableException("connection lost before the reply; the"
                    + " command is not idempotent, so it is not re-sent; outcome UNKNOWN", Outcome.UNKNOWN, null));
        }
    }
}
