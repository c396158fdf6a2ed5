package io.redkit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of a Redis stream: its id ({@code <ms>-<seq>}) and its fields, values as bytes.
 *
 * @param id the entry id
 * @param fields the field values, in the order they were added
 */
public record StreamEntry(String id, Map<String, byte[]> fields) {

    /** Validates and keeps the fields as given, in their order (an unmodifiable copy). */
    public StreamEntry {
        Objects.requireNonNull(id, "id");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(fields, "fields")));
    }
}
