package io.redkit;

/**
 * How a TLS ({@code rediss://}) connection checks the server's certificate.
 */
public enum TlsVerify {
    /** Certificate chain and host name (the default: anything less invites a man in the middle). */
    FULL,
    /** Certificate chain only; for servers reached by IP whose certificate names a host. */
    CA,
    /** No check at all; for a local test server only. */
    NONE
}
