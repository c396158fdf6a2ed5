package io.redkit.cache.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedkitClock;
import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheFormat;
import io.redkit.cache.LargeValuePolicy;
import io.redkit.cache.ValueTooLargeException;

/**
 * From stored bytes to a {@link Lookup} and from a loaded value to stored bytes: envelope (or plain JSON), codec,
 * compression, the size limit, TTL jitter and XFetch's decision. The one home of the hit-decode sequence, whoever
 * read the bytes (GET, MGET, the fill script). No Redis here.
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
    private final boolean plain;
    // PLAIN_JSON entries carry no recompute time: XFetch's δ is then this instance's recent load time (an average).
    private volatile int recentLoadMillis;
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
        this.plain = config.format() == CacheFormat.PLAIN_JSON;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * Whether a hit needs the key's PTTL: in plain JSON with XFetch on, since the entry has no header to carry its
     * logical expiry.
     */
    boolean needsTtl() {
        return plain && beta > 0;
    }

    /** {@link #read(byte[], Optional)} of bytes whose remaining life was not read (MGET, the fill script). */
    Lookup<V> read(byte[] bytes) {
        return read(bytes, Optional.empty());
    }

    /**
     * What stored bytes hold: a value or a "not found" marker (with XFetch's verdict), or a miss when they are
     * absent, of another schema version, corrupt or larger than this cache ever writes (counted). {@code remaining}
     * is the key's PTTL, which XFetch uses for a plain JSON entry; empty: no early refresh of it.
     */
    Lookup<V> read(byte[] bytes, Optional<Duration> remaining) {
        if (bytes == null) {
            return Lookup.miss();
        }
        if (bytes.length > maxBytes) {
            // Not written by this cache: inflating or decoding it would only spend memory on garbage.
            metrics.decodeError();
            return new Lookup.Miss<>(bytes);
        }
        if (plain) {
            boolean refresh = remaining.isPresent() && refreshEarly(remaining.get().toMillis(), recentLoadMillis);
            return PlainJson.isNull(bytes) ? new Lookup.KnownAbsent<>(refresh)
                    : decoded(bytes, 0, bytes.length, bytes, refresh);
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
                return decoded(d.source(), d.offset(), d.length(), bytes, refreshEarly(d));
            }
        }
    }

    /** A hit on the codec's value, or a miss (counted) when the payload does not decode to one. */
    private Lookup<V> decoded(byte[] payload, int offset, int length, byte[] bytes, boolean refreshEarly) {
        V value;
        try {
            value = codec.decode(payload, offset, length);
        } catch (Exception e) {
            metrics.decodeError();
            log.debug("cache '{}': entry did not decode, reloading: {}", cache, e.toString());
            return new Lookup.Miss<>(bytes);
        }
        if (value == null) {
            // A codec that reads some foreign payload as null: not a value, and not this cache's marker either.
            metrics.decodeError();
            log.debug("cache '{}': entry decoded to null, reloading", cache);
            return new Lookup.Miss<>(bytes);
        }
        return new Lookup.Hit<>(value, refreshEarly);
    }

    /**
     * The entry to store for a loaded value; null when it must not be cached (not-found with negative caching off,
     * a value the codec cannot write, or one above the limit under {@link LargeValuePolicy#SKIP}).
     *
     * @throws ValueTooLargeException above the limit under {@link LargeValuePolicy#FAIL}
     */
    Stored encode(Optional<V> value, long loadNanos) {
        int recompute = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Duration.ofNanos(loadNanos).toMillis()));
        int recent = recentLoadMillis;
        recentLoadMillis = recent == 0 ? recompute : (int) ((3L * recent + recompute) / 4);
        if (value.isEmpty()) {
            if (negativeTtlMillis == 0) {
                return null;
            }
            long ttl = jittered(negativeTtlMillis);
            return new Stored(plain ? PlainJson.NOT_FOUND : Envelope.notFound(version, clock.wallMillis() + ttl,
                    recompute), ttl);
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
        if (plain) {
            return plainEntry(payload, ttl);
        }
        Envelope.Encoded encoded = Envelope.value(version, clock.wallMillis() + ttl, recompute, payload, compressAbove);
        if (encoded.compressed()) {
            metrics.compressed();
        }
        if (encoded.bytes().length > maxBytes) {
            return tooLarge(encoded.bytes().length);
        }
        return new Stored(encoded.bytes(), ttl);
    }

    private Stored plainEntry(byte[] json, long ttl) {
        if (PlainJson.isNull(json)) {
            // Stored, it would read back as "not found", here and in every other language.
            log.warn("cache '{}': the value's JSON is null, which is the \"not found\" marker; not cached", cache);
            return null;
        }
        return json.length > maxBytes ? tooLarge(json.length) : new Stored(json, ttl);
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
        return refreshEarly(d.expiresAtMillis() - clock.wallMillis(), d.recomputeMillis());
    }

    /** XFetch on the remaining life: {@code −δ·β·ln(U) ≥ expiry − now}. */
    private boolean refreshEarly(long remainingMillis, int recomputeMillis) {
        if (beta == 0) {
            return false;
        }
        double u = 1.0 - ThreadLocalRandom.current().nextDouble();
        return -recomputeMillis * beta * Math.log(u) >= remainingMillis;
    }
}
