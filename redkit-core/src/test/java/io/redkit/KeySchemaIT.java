package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/** Keys as a real redis-server sees them: another client's hand-written lock key, and lone surrogates. */
class KeySchemaIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    private static Redkit redkit;
    private final KeySchema locks = KeySchema.of("lock");

    @BeforeAll
    static void connect() {
        redkit = Redkit.connect(redis.url());
    }

    @AfterAll
    static void close() {
        redkit.close();
    }

    @BeforeEach
    void empty() {
        redis.server().flushAll();
    }

    @Test
    void aRawSetNxPxContenderHoldsTheSameKeyAsNameKey() {
        // A Go or Node service taking the README's lock:{name} by hand.
        assertThat(redis.server().command("SET", "lock:{job:42}", "go-owner", "NX", "PX", "10000")).isEqualTo("OK");
        RedisOps ops = redkit.commands();
        assertThat(ops.setIfAbsent(locks.nameKey("job:42"), bytes("redkit-owner"), Duration.ofSeconds(10))).isFalse();
        assertThat(ops.getString(locks.nameKey("job:42"))).contains("go-owner");

        assertThat(ops.setIfAbsent(locks.nameKey("job:43"), bytes("redkit-owner"), Duration.ofSeconds(10))).isTrue();
        assertThat(redis.server().command("SET", "lock:{job:43}", "go-owner", "NX", "PX", "10000")).isNull();
    }

    @Test
    void loneSurrogatesAreDistinctKeysAndTheirPrefixScanFindsOnlyThem() {
        KeySchema cache = KeySchema.of("cache.it");
        List<String> keys = List.of(cache.key("\uD800"), cache.key("\uDC00"), cache.key("?"), cache.key("a"),
                cache.key("\uD800", "x"), cache.key("\uFFFD"));
        keys.forEach(key -> redkit.commands().set(key, bytes("v")));

        assertThat(scan(cache.pattern())).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(scan(cache.pattern("\uD800"))).containsExactlyInAnyOrder(cache.key("\uD800"),
                cache.key("\uD800", "x"));
        assertThat(scan(locks.namePattern("\uD800"))).isEmpty();
    }

    private static List<String> scan(String pattern) {
        List<String> found = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) redis.server().command("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = String.valueOf(reply.get(0));
            ((List<?>) reply.get(1)).forEach(key -> found.add(String.valueOf(key)));
        } while (!cursor.equals("0"));
        return found;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
