package io.redkit.stream.internal;

import io.redkit.StreamEntry;

/**
 * An entry as one read or claim handed it to this worker, and its delivery count.
 *
 * @param entry the entry
 * @param count how many times Redis has handed it out, this time included
 */
record Delivery(StreamEntry entry, long count) {

    String id() {
        return entry.id();
    }
}
