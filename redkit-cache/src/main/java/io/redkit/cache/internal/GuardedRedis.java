package io.redkit.cache.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisBreaker;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.RedisReads;
import io.redkit.RedkitException;
import io.redkit.cache.CacheHealth;

/**
 * Every read-path Redis call of a cache goes through here: the {@link RedisBreaker} decides whether Redis is
 * called at all, and a Redis failure becomes {@link Skipped} (logged, counted) so that the caller serves from the
 * source. Only availability failures (timeouts, unreachable, pool exhausted) count against the breaker; a
 * {@code WRONGTYPE} reply is handed to the caller, which repairs the entry. While the breaker is open no user
 * read touches Redis; a background probe closes it within about a second of Redis answering again.
 */
final class GuardedRedis implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GuardedRedis.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Redis was not used or failed; the caller goes to the source. Preallocated: it is control flow. */
    static final class Skipped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private Skipped() {
            super("Redis skipped", null, false, false);
        }
    }

    static final Skipped SKIPPED = new Skipped();

    /** An entry's bytes (null: none) and the key's remaining life (empty: unknown, or it never expires). */
    record Fetched(byte[] bytes, Optional<Duration> ttl) {
    }

    private final String cache;
    private final RedisOps master;
    private final RedisReads reads;
    private final RedisBreaker breaker;
    private final CacheMetrics metrics;
    private final AtomicLong lastWarn;

    GuardedRedis(String cache, RedisOps master, RedisReads reads, RedisBreaker breaker, CacheMetrics metrics) {
        this.cache = cache;
        this.master = master;
        this.reads = reads;
        this.breaker = breaker;
        this.metrics = metrics;
        this.lastWarn = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
        metrics.breakerGauge(() -> switch (breaker.state()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        });
    }

    /** A read ({@code GET}, {@code MGET}) where the cache reads, maybe a replica; {@code key} names the node. */
    <T> T read(String key, Function<RedisReads, T> call) {
        return guarded(key, () -> call.apply(reads));
    }

    /**
     * GET and PTTL of {@code key} where the cache reads, sent back to back on one connection: one round trip
     * (pipelined), not atomic. A write or delete between the two only skews XFetch's decision for this read (a
     * fresher or absent TTL: no early refresh); the value is always the one GET returned.
     */
    Fetched readWithTtl(String key) {
        return guarded(key, () -> {
            CompletableFuture<Optional<byte[]>> value = reads.getAsync(key);
            CompletableFuture<Optional<Duration>> ttl = reads.ttlAsync(key);
            return new Fetched(join(value).orElse(null), join(ttl));
        });
    }

    /** The reply, or the redkit exception it failed with, as a synchronous call would throw it. */
    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** A call on the master (fill scripts, leases), unless the breaker is open. */
    <T> T call(String key, Function<RedisOps, T> call) {
        return guarded(key, () -> call.apply(master));
    }

    /** {@link #call} without blocking: the future fails with {@link Skipped}. */
    <T> CompletableFuture<T> callAsync(String key, Function<RedisOps, CompletableFuture<T>> call) {
        if (!breaker.tryAcquire()) {
            return CompletableFuture.failedFuture(SKIPPED);
        }
        long start = System.nanoTime();
        CompletableFuture<T> future;
        try {
            future = call.apply(master);
        } catch (RuntimeException e) {
            breaker.released();
            throw e;
        }
        return future.handle((v, e) -> {
            if (e == null) {
                breaker.succeeded(System.nanoTime() - start);
                return v;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof RedisCommandException) {
                breaker.succeeded(System.nanoTime() - start); // Redis answered: not an outage
                countFailure(cause);
            } else {
                failed(key, start, cause);
            }
            throw SKIPPED;
        });
    }

    private <T> T guarded(String key, Supplier<T> call) {
        if (!breaker.tryAcquire()) {
            throw SKIPPED;
        }
        long start = System.nanoTime();
        T result;
        try {
            result = call.get();
        } catch (RedisCommandException e) {
            // Redis answered: an entry of the wrong type is the caller's to repair, not an outage.
            breaker.succeeded(System.nanoTime() - start);
            if ("WRONGTYPE".equals(e.errorCode())) {
                throw e;
            }
            countFailure(e);
            throw SKIPPED;
        } catch (RedkitException e) {
            failed(key, start, e);
            throw SKIPPED;
        } catch (RuntimeException e) {
            breaker.released();
            throw e;
        }
        breaker.succeeded(System.nanoTime() - start);
        return result;
    }

    /** The master, for invalidation: it bypasses the breaker, because skipping it would leave stale entries. */
    RedisOps master() {
        return master;
    }

    /** Counts and logs a failure that does not judge availability (invalidation, a command error). */
    void countFailure(Throwable e) {
        metrics.redisError();
        warn(e);
    }

    /** HEALTHY while the breaker is closed; DEGRADED, open or half-open (probes answering), otherwise. */
    CacheHealth health() {
        CacheHealth.Breaker state = switch (breaker.state()) {
            case CLOSED -> CacheHealth.Breaker.CLOSED;
            case OPEN -> CacheHealth.Breaker.OPEN;
            case HALF_OPEN -> CacheHealth.Breaker.HALF_OPEN;
        };
        return new CacheHealth(state == CacheHealth.Breaker.CLOSED ? CacheHealth.Status.HEALTHY
                : CacheHealth.Status.DEGRADED, state);
    }

    private void failed(String key, long start, Throwable e) {
        breaker.failed(System.nanoTime() - start, e, key);
        metrics.redisError();
        warn(e);
    }

    private void warn(Throwable e) {
        long now = System.nanoTime();
        long last = lastWarn.get();
        // One warning per 10 s per cache: a Redis outage at 10k reads/s must not become 10k log lines/s.
        if (now - last >= WARN_EVERY_NANOS && lastWarn.compareAndSet(last, now)) {
            log.warn("cache '{}': Redis failed, serving from the source: {}", cache, e.toString());
        } else {
            log.debug("cache '{}': Redis failed: {}", cache, e.toString());
        }
    }

    /** Stops probing. */
    @Override
    public void close() {
        breaker.close();
    }
}
