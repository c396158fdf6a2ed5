package io.redkit.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a constructor opened so far, closed in reverse order when it fails halfway, so that a failed start leaks no
 * thread or connection. Not thread-safe: one constructor uses it.
 */
public final class Cleanup {

    private static final Logger log = LoggerFactory.getLogger(Cleanup.class);

    private final Deque<Runnable> steps = new ArrayDeque<>();

    /** Remembers how to close {@code resource}, and returns it. */
    public <T> T add(T resource, Consumer<? super T> close) {
        steps.push(() -> close.accept(resource));
        return resource;
    }

    /** Closes everything remembered, newest first; failures are attached to {@code cause}, never thrown. */
    public void closeAll(Throwable cause) {
        while (!steps.isEmpty()) {
            try {
                steps.pop().run();
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
                log.debug("cleanup after a failed start failed", e);
            }
        }
    }
}
