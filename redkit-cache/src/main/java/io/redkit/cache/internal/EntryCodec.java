package io.redkit.cache.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedkitClock;
import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.LargeValuePolicy;
import io.redkit.cache.ValueTooLargeException;

/**
 * From stored bytes to a {@link Lookup} and from a loaded value to stored bytes: envelope, codec, compression,
 * the size limit, TTL jitter and XFetch's decision. The one home of the hit-decode sequence, whoever read the
 * bytes (GET, MGET, the fill script). No Redis here.
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
    private final RedkitClock clock;
    private final CacheMetrics metrics;

    EntryCodec(CacheConfig<?, V> config, RedkitClock clock, CacheMetrics metrics) {
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
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * What stored bytes hold: a value or a "not found" marker (with XFetch's verdict), or a miss when they are
     * absent, of another schema version, corrupt or larger than this cache ever writes (counted).
     */
    Lookup<V> read(byte[] bytes) {
        if (bytes == null) {
            return Lookup.miss();
        }
        if (bytes.length > maxBytes) {
            // Not written by this cache: inflating or decoding it would only spend memory on garbage.
            metrics.decodeError();
            return new Lookup.Miss<>(bytes);
        }
        Envelope.Decoded d = Envelope.decode(bytes, version);
        switch (d.status()) {
            case CORRUPT -> {
                metrics.decodeError();
                return new Lookup.Miss<>(bytes);
            }
            case OTHER_VERSION -> {
                metrics.otherVersion();
                return new Lookup.Miss<>(bytes);
            }
            case NOT_FOUND -> {
                return new Lookup.KnownAbsent<>(refreshEarly(d));
            }
            default -> {
                try {
                    return new Lookup.Hit<>(codec.decode(d.payload()), refreshEarly(d));
                } catch (Exception e) {
                    metrics.decodeError();
                    log.debug("cache '{}': entry did not decode, reloading: {}", cache, e.toString());
                    return new Lookup.Miss<>(bytes);
                }
            }
        }
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
            return new Stored(Envelope.notFound(version, clock.wallMillis() + ttl, recompute), ttl);
        }
        byte[] payload;
        try {
            payload = codec.encode(value.get());
        } catch (Exception e) {
            log.warn("cache '{}': value did not encode, not cached: {}", cache, e.toString());
            return null;
        }
        if (payload.length > Envelope.MAX_PAYLOAD) {
            return tooLarge(payload.length);
        }
        long ttl = jittered(ttlMillis);
        Envelope.Encoded encoded = Envelope.value(version, clock.wallMillis() + ttl, recompute, payload, compressAbove);
        if (encoded.compressed()) {
            metrics.compressed();
        }
        if (encoded.bytes().length > maxBytes) {
            return tooLarge(encoded.bytes().length);
        }
        return new Stored(encoded.bytes(), ttl);
    }

    private Stored tooLarge(int size) {
        if (largePolicy == LargeValuePolicy.FAIL) {
            metrics.refused();
            throw new ValueTooLargeException(cache, size, maxBytes);
        }
        metrics.skipped();
        return null;
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
    private boolean refreshEarly(Envelope.Decoded d) {
        if (beta == 0) {
            return false;
        }
        double u = 1.0 - ThreadLocalRandom.current().nextDouble();
        return clock.wallMillis() - d.recomputeMillis() * beta * Math.log(u) >= d.expiresAtMillis();
    }
}
