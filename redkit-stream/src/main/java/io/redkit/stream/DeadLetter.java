package io.redkit.stream;

import java.util.Map;
import java.util.Objects;

/**
 * One entry of the dead-letter stream: the original entry's fields (its {@code v}, {@code k} and {@code d}) and
 * why it was moved. Other languages read the same fields: {@code dead-id}, {@code dead-reason},
 * {@code dead-error}, {@code dead-deliveries}, {@code dead-group}, {@code dead-consumer}.
 *
 * @param id the dead letter's own id
 * @param originalId the entry's id in the stream
 * @param reason {@code failed} (the handler threw on its last delivery), {@code undecodable} (no delivery can
 *     read it) or {@code abandoned} (its last delivery never came back: a worker crashed or hung)
 * @param error the last error's text (the exception's class and message), or why it was abandoned
 * @param deliveries how many times it was handed out
 * @param consumer the consumer that moved it
 * @param fields the original entry's fields, as stored
 */
public record DeadLetter(String id, String originalId, String reason, String error, long deliveries,
        String consumer, Map<String, byte[]> fields) {

    /** Validates and copies. */
    public DeadLetter {
        Objects.requireNonNull(id, "id");
        fields = Map.copyOf(Objects.requireNonNull(fields, "fields"));
    }
}
