package io.redkit.session.internal;

import io.redkit.RedisOps;
import io.redkit.RedkitClock;
import io.redkit.session.SessionConfig;

/**
 * What the parts of a session store share, built once by {@link DefaultSessionStore}, in one place instead of a
 * reference back to the store.
 *
 * @param config the store's configuration
 * @param ops the commands, with the store's timeout when it has one
 * @param clock the client's time source: wall time for expiries, nano time for metrics and patience
 * @param index each user's index of session ids
 * @param coder a session's stored form
 * @param metrics the store's meters
 * @param guard the breaker and error translation around every call to Redis
 */
record SessionRuntime<T>(SessionConfig config, RedisOps ops, RedkitClock clock, UserIndex index,
        SessionCoder<T> coder, SessionMetrics metrics, Guard guard) {
}
