package io.redkit.limit.internal;

import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.RedkitClock;

/**
 * What a limiter needs from the {@link DefaultLimits} that made it, in one place instead of a reference back to
 * its parent.
 *
 * @param ops the request profile, with the configured decision timeout
 * @param schema builds the keys of the namespace
 * @param breaker the breaker shared by every limiter of the namespace
 * @param clock the client's time source, for latency and for decisions made without Redis
 * @param metrics where each limiter's meters are registered
 */
record LimitRuntime(RedisOps ops, KeySchema schema, LimitBreaker breaker, RedkitClock clock, LimitMetrics metrics) {
}
