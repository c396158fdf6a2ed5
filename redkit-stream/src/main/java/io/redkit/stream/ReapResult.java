package io.redkit.stream;

import java.util.List;

/**
 * What {@link StreamQueue#reapDeadConsumers} did.
 *
 * @param removed the consumers deleted
 * @param entriesHandedOn their pending entries, handed to the reaper consumer before each deletion
 */
public record ReapResult(List<String> removed, long entriesHandedOn) {

    /** Copies the list. */
    public ReapResult {
        removed = List.copyOf(removed);
    }
}
