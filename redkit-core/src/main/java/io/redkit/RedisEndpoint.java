package io.redkit;

/**
 * A host and port: a standalone server, a Sentinel, or a Cluster seed.
 *
 * @param host host name or IP literal (IPv6 without brackets)
 * @param port TCP port, 1–65535
 */
public record RedisEndpoint(String host, int port) {

    /** Validates the host and port. */
    public RedisEndpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1-65535, was " + port);
        }
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
