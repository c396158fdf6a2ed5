package io.redkit.internal;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.redkit.Outcome;
import io.redkit.RedisCommandException;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;

/**
 * The one place where Lettuce's (and Netty's) exceptions become redkit's error model; no other class catches a
 * Lettuce exception type.
 */
public final class ExceptionTranslator {

    /** Error replies that mean "this server cannot serve you right now", not "your command is wrong". */
    private static final Set<String> UNAVAILABLE_CODES =
            Set.of("READONLY", "LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "NOREPLICAS", "BUSY");

    private ExceptionTranslator() {
    }

    /** Maps {@code failure} of {@code command} to a {@link RedkitException}. */
    public static RedkitException translate(String command, Throwable failure, Duration timeout) {
        Throwable t = unwrap(failure);
        if (t instanceof RedkitException e) {
            return e;
        }
        if (t instanceof RedisCommandTimeoutException || t instanceof TimeoutException) {
            return new RedisTimeoutException(command, timeout, t);
        }
        if (t instanceof RedisCommandExecutionException e) {
            String reply = e.getMessage() == null ? "ERR" : e.getMessage();
            String code = reply.strip().split(" ", 2)[0];
            if (UNAVAILABLE_CODES.contains(code)) {
                return new RedisUnavailableException(command + " refused by the server: " + reply
                        + " (not executed)", Outcome.NOT_EXECUTED, e);
            }
            return new RedisCommandException(command, reply, e);
        }
        if (t instanceof RedisConnectionException) {
            return new RedisUnavailableException(command + " not sent: cannot connect to Redis ("
                    + rootMessage(t) + ")", Outcome.NOT_EXECUTED, t);
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (t instanceof RedisException && (message.contains("not connected") || message.contains("rejected"))) {
            return new RedisUnavailableException(command + " rejected at once: not connected to Redis"
                    + " (not executed)", Outcome.NOT_EXECUTED, t);
        }
        if (t instanceof IOException || t instanceof ClosedChannelException || t instanceof CancellationException
                || (t instanceof RedisException && (message.contains("closed") || message.contains("isconnect")))) {
            return new RedisUnavailableException(command + " lost its connection before the reply (" + message
                    + "); outcome UNKNOWN", Outcome.UNKNOWN, t);
        }
        return new RedkitException(command + " failed: " + message + "; outcome UNKNOWN", Outcome.UNKNOWN, t);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
