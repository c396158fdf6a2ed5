package io.redkit.internal;

import java.util.function.Supplier;

/**
 * One of a Lettuce connection's command facades ({@code sync()}, {@code reactive()}), built on the first
 * {@link #get} and once, also when several threads ask at the same time.
 *
 * <p>The builder is a {@code Supplier<Object>} on purpose: a lambda's synthetic method is typed by its target, and
 * resolving a method type that names {@code RedisCommands} loads the ~30 command interfaces whose loading the lazy
 * build is meant to spare; the cast in {@link #get} resolves the facade's type only when it is asked for.
 */
final class LazyFacade<T> {

    private final Supplier<Object> build;
    private volatile Object value;

    LazyFacade(Supplier<Object> build) {
        this.build = build;
    }

    @SuppressWarnings("unchecked")
    T get() {
        Object v = value;
        if (v == null) {
            synchronized (this) {
                v = value;
                if (v == null) {
                    v = build.get();
                    value = v;
                }
            }
        }
        return (T) v;
    }
}
