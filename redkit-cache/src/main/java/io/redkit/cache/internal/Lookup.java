package io.redkit.cache.internal;

import java.util.Optional;

/**
 * What one read of an entry found: a value, a "not found" marker, or nothing usable. A reader never has to tell
 * these apart by {@code null} versus {@code Optional.empty()}.
 *
 * @param <V> the value type
 */
sealed interface Lookup<V> {

    /** A value, and whether XFetch says to refresh it early. */
    record Hit<V>(V value, boolean refreshEarly) implements Lookup<V> {
    }

    /** A "not found" marker: the source has no such row (cached briefly), and whether to refresh it early. */
    record KnownAbsent<V>(boolean refreshEarly) implements Lookup<V> {
    }

    /**
     * Nothing usable: no entry, or one that did not decode ({@code rejected} holds its bytes, so the fill can tell
     * it from an entry written meanwhile; empty when there was none or Redis was not asked).
     */
    record Miss<V>(byte[] rejected) implements Lookup<V> {
        private static final Miss<Object> NOTHING = new Miss<>(null);
    }

    /** Whether this answers the read without the source. */
    default boolean answers() {
        return !(this instanceof Miss);
    }

    /** The answer as the cache's API gives it; only for {@link #answers()} lookups. */
    default Optional<V> answer() {
        if (this instanceof Hit<V> hit) {
            return Optional.of(hit.value());
        }
        if (this instanceof KnownAbsent) {
            return Optional.empty();
        }
        throw new IllegalStateException("a miss has no answer");
    }

    /** Whether XFetch asks for an early refresh of what was found. */
    default boolean refreshEarly() {
        return this instanceof Hit<V> hit ? hit.refreshEarly()
                : this instanceof KnownAbsent<V> absent && absent.refreshEarly();
    }

    /** The answer of a value or a marker, as a lookup (for the near cache, which stores answers). */
    static <V> Lookup<V> of(Optional<V> answer) {
        return answer.isPresent() ? new Hit<>(answer.get(), false) : new KnownAbsent<>(false);
    }

    /** A miss with nothing rejected: one instance, since every read without a near cache asks it for one. */
    @SuppressWarnings("unchecked")
    static <V> Lookup<V> miss() {
        return (Lookup<V>) Miss.NOTHING;
    }
}
