package io.redkit.session;

import java.time.Instant;

/**
 * What a readiness endpoint reports for sessions. Sessions fail closed, so a store that cannot reach Redis makes
 * the service NOT READY (the load balancer sends its users elsewhere), not DEGRADED as a cache would be.
 *
 * @param status ready or not
 * @param since when the status last changed (wall clock), or when the store was built
 * @param cause the simple name of the failure that made it NOT_READY, or null when ready
 */
public record SessionHealth(Status status, Instant since, String cause) {

    /** Whether sessions can be served. */
    public enum Status {
        /** Redis answered the last operation or probe. */
        READY,
        /** Redis did not: every session operation fails with {@link SessionStoreUnavailableException}. */
        NOT_READY
    }

    /** Whether the status is {@link Status#READY}. */
    public boolean isReady() {
        return status == Status.READY;
    }
}
