package io.redkit;

import java.util.List;

/** What the tracked-reads tests listen with: each key heard as {@code key <k>}, each reset as {@code reset <why>}. */
final class Heard {

    /** What a RESP2 connection hears when its redirect connection is lost. */
    static final String REDIRECT_LOST =
            "reset the invalidation connection was lost: invalidations sent meanwhile are missed";

    private Heard() {
    }

    /** A listener that adds what it hears to {@code heard}, which must be safe to add to from another thread. */
    static InvalidationListener into(List<String> heard) {
        return new InvalidationListener() {
            @Override
            public void invalidated(List<String> keys) {
                keys.forEach(k -> heard.add("key " + k));
            }

            @Override
            public void reset(String why) {
                heard.add("reset " + why);
            }
        };
    }
}
