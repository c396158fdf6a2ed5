package io.redkit.lock.jdbc;

import java.util.OptionalLong;

/**
 * What the resource did with a fenced write.
 *
 * @param status applied, refused as stale, or no such row
 * @param token the fencing token the write carried
 * @param currentFence the row's fence after the write (the newer token that refused it, for a stale one); empty
 *     when there is no row
 */
public record FencedWrite(Status status, long token, OptionalLong currentFence) {

    /** The three outcomes of a fenced write. */
    public enum Status {
        /** The row carried a token no newer than ours; it now carries ours and the new values. */
        APPLIED,
        /** The row has seen a newer token: we are a stale holder (our lease expired and someone took over). */
        STALE,
        /** No row with that id ({@link FenceGuard#update} only; the upsert inserts it). */
        NOT_FOUND
    }

    /** Whether the write was applied. */
    public boolean applied() {
        return status == Status.APPLIED;
    }

    /** Whether the write was refused because a newer holder had written first. */
    public boolean stale() {
        return status == Status.STALE;
    }
}
