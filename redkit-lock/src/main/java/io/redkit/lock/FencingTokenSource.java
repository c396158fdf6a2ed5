package io.redkit.lock;

/**
 * Issues fencing tokens from outside Redis, for when a Redis failover could roll the counter back (an
 * asynchronous replica promoted before it saw the last INCR issues a token twice). Tokens must strictly increase
 * across every call, for every lock that uses the source. See {@code io.redkit.lock.jdbc.PostgresSequenceTokens}.
 */
@FunctionalInterface
public interface FencingTokenSource {

    /**
     * The next token for {@code lockName}; strictly greater than every token returned before.
     *
     * @throws RuntimeException when no token can be issued; the acquisition then fails and is undone
     */
    long next(String lockName);
}
