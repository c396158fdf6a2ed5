package io.redkit;

/**
 * What a failed call did on the server, as far as the client can know; it decides whether a retry is safe.
 */
public enum Outcome {
    /** The command never reached the server (rejected while disconnected, no pooled connection): safe to retry. */
    NOT_EXECUTED,
    /** The server answered with an error and did not apply the command (a Lua script may have applied part of it). */
    FAILED,
    /** No answer arrived in time: the command may or may not have run. Retry only what is idempotent. */
    UNKNOWN
}
