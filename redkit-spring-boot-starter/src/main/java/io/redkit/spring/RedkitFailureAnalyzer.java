package io.redkit.spring;

import java.util.Locale;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

import io.redkit.RedkitException;

/**
 * A failed start because of Redis, said the way Spring Boot says a port in use: one description, one action, in
 * place of a 130-line trace whose first line names the application's own bean. For a start without a Redis URL,
 * and for a client that cannot connect (wrong address or port: the address is shown; wrong password or user: the
 * password never is, the URL in the message is masked by redkit-core).
 */
public final class RedkitFailureAnalyzer implements FailureAnalyzer {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IllegalStateException && ClientSettings.NO_URL.equals(t.getMessage())) {
                return new FailureAnalysis("redkit needs to know where Redis is, and no Redis URL is set.",
                        "Set redkit.url (e.g. redis://127.0.0.1:6379, rediss://user:password@host:6380 for TLS and an"
                                + " ACL user), the REDIS_URL environment variable, or spring.data.redis.url.", t);
            }
            if (t instanceof RedkitException e && String.valueOf(e.getMessage()).startsWith("connect")) {
                return connect(e);
            }
        }
        return null;
    }

    private static FailureAnalysis connect(RedkitException e) {
        String message = e.getMessage();
        String lower = message.toLowerCase(Locale.ROOT);
        boolean credentials = lower.contains("wrongpass") || lower.contains("noauth") || lower.contains("auth")
                && lower.contains("password");
        String action = credentials
                ? "Check the user and password in the Redis URL (redkit.url, REDIS_URL or spring.data.redis.url):"
                        + " redis://user:password@host:port for an ACL user, redis://:password@host:port for"
                        + " requirepass."
                : "Check that Redis is running at that address and port and reachable from here (firewall, TLS:"
                        + " rediss://), or point redkit.url (or REDIS_URL, spring.data.redis.url) at the right one.";
        return new FailureAnalysis("redkit could not connect to Redis when the application started: " + message,
                action, e);
    }
}
