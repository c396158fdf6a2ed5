package io.redkit.cache.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.LargeValuePolicy;
import io.redkit.cache.ValueTooLargeException;

/**
 * From stored bytes to a value and back: envelope, codec, compression, the size limit, TTL jitter and XFetch's
 * decision. No Redis here.
 */
final class EntryCodec<V> {

    private static final Logger log = LoggerFactory.getLogger(EntryCodec.class);

    /** An entry ready to store: its bytes and its TTL in milliseconds. */
    record Stored(byte[] bytes, long ttlMillis) {
    }

    private final String cache;
    private final CacheCodec<V> codec;
    private final int version;
    private final long ttlMillis;
    private final double jitter;
    private final long negativeTtlMillis;
    private final double beta;
    private final int compressAbove;
    private final int maxBytes;
    private final LargeValuePolicy largePolicy;
    private final Clock clock;
    private final CacheMetrics metrics;

    EntryCodec(CacheConfig<?, V> config, CacheMetrics metrics) {
        this.cache = config.name();
        this.codec = config.codec();
        this.version = config.schemaVersion();
        this.ttlMillis = config.ttl().toMillis();
        this.jitter = config.ttlJitter();
        this.negativeTtlMillis = config.negativeTtl().toMillis();
        this.beta = config.earlyRefreshBeta();
        this.compressAbove = config.compressAbove();
        this.maxBytes = config.maxValueBytes();
        this.largePolicy = config.largeValuePolicy();
        this.clock = config.clock();
        this.metrics = metrics;
    }

    /** The envelope of stored bytes, with a bad one counted (it is a miss). */
    Envelope.Decoded open(byte[] bytes) {
        Envelope.Decoded d = Envelope.decode(bytes, version);
        if (d.status() == Envelope.Status.CORRUPT) {
            metrics.decodeError();
        } else if (d.status() == Envelope.Status.OTHER_VERSION) {
            metrics.otherVersion();
        }
        return d;
    }

    /** The value of a usable envelope, or null when the codec cannot read it (counted; a miss). */
    Optional<V> value(Envelope.Decoded d) {
        if (d.status() == Envelope.Status.NOT_FOUND) {
            return Optional.empty();
        }
        try {
            return Optional.of(codec.decode(d.payload()));
        } catch (Exception e) {
            metrics.decodeError();
            log.debug("cache '{}': entry did not decode, reloading: {}", cache, e.toString());
            return null;
        }
    }

    /** Stored bytes straight to a value; null when they are not a usable entry. */
    Optional<V> read(byte[] bytes) {
        Envelope.Decoded d = open(bytes);
        return d.usable() ? value(d) : null;
    }

    /**
     * The entry to store for a loaded value; null when it must not be cached (not-found with negative caching off,
     * a value the codec cannot write, or one above the limit under {@link LargeValuePolicy#SKIP}).
     *
     * @throws ValueTooLargeException above the limit under {@link LargeValuePolicy#FAIL}
     */
    Stored encode(Optional<V> value, long loadNanos) {
        int recompute = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Duration.ofNanos(loadNanos).toMillis()));
        if (value.isEmpty()) {
            if (negativeTtlMillis == 0) {
                return null;
            }
            long ttl = jittered(negativeTtlMillis);
            return new Stored(Envelope.notFound(version, clock.millis() + ttl, recompute), ttl);
        }
        byte[] payload;
        try {
            payload = codec.encode(value.get());
        } catch (Exception e) {
            log.warn("cache '{}': value did not encode, not cached: {}", cache, e.toString());
            return null;
        }
        long ttl = jittered(ttlMillis);
        Envelope.Encoded encoded = Envelope.value(version, clock.millis() + ttl, recompute, payload, compressAbove);
        if (encoded.compressed()) {
            metrics.compressed();
        }
        if (encoded.bytes().length > maxBytes) {
            if (largePolicy == LargeValuePolicy.FAIL) {
                metrics.refused();
                throw new ValueTooLargeException(cache, encoded.bytes().length, maxBytes);
            }
            metrics.skipped();
            return null;
        }
        return new Stored(encoded.bytes(), ttl);
    }

    /** Spread over {@code [ttl·(1−jitter), ttl]}: never longer than configured. */
    private long jittered(long ttl) {
        if (jitter == 0) {
            return ttl;
        }
        long spread = (long) (ttl * jitter * ThreadLocalRandom.current().nextDouble());
        return Math.max(1, ttl - spread);
    }

    /**
     * XFetch (Vattani, Chierichetti, Lowenstein, VLDB 2015): refresh when {@code now − δ·β·ln(U) ≥ expiry}, U
     * uniform in (0, 1]. The probability rises as expiry nears, and earlier for values that are slow to compute.
     */
    boolean refreshEarly(Envelope.Decoded d) {
        if (beta == 0) {
            return false;
        }
        double u = 1.0 - ThreadLocalRandom.current().nextDouble();
        return clock.millis() - d.recomputeMillis() * beta * Math.log(u) >= d.expiresAtMillis();
    }
}
