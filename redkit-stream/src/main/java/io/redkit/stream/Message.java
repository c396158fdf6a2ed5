package io.redkit.stream;

import java.time.Instant;
import java.util.Objects;

/**
 * One message as a handler receives it: its entry id, the key its producer gave it (the same on a producer's
 * retry, so {@link Once} can tell a duplicate by it), the payload, and how many times it has been handed out.
 *
 * @param stream the stream's name
 * @param id the entry id ({@code <ms>-<seq>}), unique in the stream; a producer's retry after a timeout adds
 *     another entry with another id
 * @param key the message key its producer gave (a random UUID unless given)
 * @param payload the decoded payload
 * @param delivery how many times Redis has handed it out, this time included: 1 the first time, more after a
 *     failure, a timeout or a worker's crash (the message may then have been handled before: at-least-once)
 * @param <T> the payload type
 */
public record Message<T>(String stream, String id, String key, T payload, long delivery) {

    /** Validates the record. */
    public Message {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
        if (delivery < 1) {
            throw new IllegalArgumentException("delivery must be at least 1, was " + delivery);
        }
    }

    /** Whether it was handed out before: an earlier handling may have run, in part or in full. */
    public boolean redelivered() {
        return delivery > 1;
    }

    /** When Redis added it: the millisecond part of its id, the server's clock. */
    public Instant addedAt() {
        int dash = id.indexOf('-');
        return Instant.ofEpochMilli(Long.parseLong(dash < 0 ? id : id.substring(0, dash)));
    }
}
