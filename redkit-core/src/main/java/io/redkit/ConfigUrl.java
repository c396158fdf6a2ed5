package io.redkit;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import io.redkit.internal.RedisUrl;

/**
 * A {@link RedkitConfig} and its URL: the settings a URL's query carries, each read and checked before the
 * builder takes any of them, and the URL a configuration is written back as for logs, password masked.
 */
final class ConfigUrl {

    private ConfigUrl() {
    }

    /** The query parameters that only mean something under TLS are refused on a plain URL. */
    static void requireTlsForTlsParameters(RedisUrl parsed, String masked) {
        Map<String, String> q = parsed.query();
        if (!parsed.tls() && (q.containsKey("verifyPeer") || q.containsKey("cacert"))) {
            throw new RedisUrlException("verifyPeer/cacert need TLS: use rediss://", masked);
        }
    }

    /** {@code current} with the query's {@code timeout}, if it has one. */
    static CommandProfile requestProfile(Map<String, String> q, CommandProfile current, String masked) {
        return !q.containsKey("timeout") ? current : current.withTimeout(
                RedisUrl.parseDuration("timeout", q.get("timeout"), RedisUrl.MAX_TIMEOUT, masked));
    }

    /** The query's {@code connectTimeout}, or {@code current}. */
    static Duration connectTimeout(Map<String, String> q, Duration current, String masked) {
        return !q.containsKey("connectTimeout") ? current : RedisUrl.parseDuration(
                "connectTimeout", q.get("connectTimeout"), RedisUrl.MAX_CONNECT_TIMEOUT, masked);
    }

    /** The query's {@code verifyPeer}, or {@code current}. */
    static TlsVerify tlsVerify(Map<String, String> q, TlsVerify current, String masked) {
        if (!q.containsKey("verifyPeer")) {
            return current;
        }
        String value = q.get("verifyPeer");
        try {
            return TlsVerify.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new RedisUrlException("verifyPeer=" + value + " is not one of FULL, CA, NONE", masked);
        }
    }

    /** The query's {@code cacert}, or {@code current}. */
    static Path caCertificate(Map<String, String> q, Path current, String masked) {
        if (!q.containsKey("cacert")) {
            return current;
        }
        try {
            return Path.of(q.get("cacert"));
        } catch (InvalidPathException e) {
            throw new RedisUrlException("cacert is not a usable path (" + e.getReason() + ")", masked);
        }
    }

    /** A URL for the configuration with the password masked, for logs. */
    static String masked(RedkitConfig c) {
        StringBuilder sb = new StringBuilder();
        sb.append(c.tls() ? "rediss" : "redis").append(c.topology() == Topology.SENTINEL ? "-sentinel" : "")
                .append("://");
        if (c.username() != null || c.hasPassword()) {
            sb.append(c.username() == null ? "" : c.username()).append(c.hasPassword() ? ":****" : "").append('@');
        }
        for (int i = 0; i < c.endpoints().size(); i++) {
            sb.append(i == 0 ? "" : ",").append(c.endpoints().get(i));
        }
        if (c.database() != 0) {
            sb.append('/').append(c.database());
        }
        if (c.sentinelMasterId() != null) {
            sb.append('#').append(c.sentinelMasterId());
        }
        return sb.toString();
    }
}
