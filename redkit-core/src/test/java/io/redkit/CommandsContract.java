package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.redkit.testing.Deployment;

/**
 * The commands of the seam the feature modules are built on (GETEX, SET NX, SCAN, hashes, sets, sorted sets,
 * streams, TIME), pinned on every topology: feature code never reaches for Lettuce to run them.
 */
abstract class CommandsContract {

    private final Deployment deployment;
    private final List<Redkit> clients = new ArrayList<>();

    CommandsContract(Deployment deployment) {
        this.deployment = deployment;
    }

    RedisOps redis() {
        Redkit redkit = Redkit.connect(deployment.url());
        clients.add(redkit);
        return redkit.commands();
    }

    @AfterEach
    void close() {
        clients.forEach(Redkit::close);
    }

    static String unique(String what) {
        return KeySchema.of("seam").key(what, UUID.randomUUID().toString());
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void getExReturnsTheValueAndRenewsItsTtlInOneCall() {
        RedisOps redis = redis();
        String key = unique("getex");
        redis.set(key, bytes("v"), Duration.ofSeconds(2));
        assertThat(redis.getEx(key, Duration.ofMinutes(10))).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(redis.ttl(key)).hasValueSatisfying(t -> assertThat(t).isGreaterThan(Duration.ofMinutes(9)));
        assertThat(redis.getEx(unique("absent"), Duration.ofMinutes(1))).isEmpty();
    }

    @Test
    void ttlAsyncGivesTheRemainingLifeAndNothingForAnAbsentOrEternalKey() {
        RedisOps redis = redis();
        String key = unique("pttl");
        redis.set(key, bytes("v"), Duration.ofMinutes(10));
        assertThat(redis.ttlAsync(key).join()).hasValueSatisfying(t -> assertThat(t)
                .isGreaterThan(Duration.ofMinutes(9)).isLessThanOrEqualTo(Duration.ofMinutes(10)));
        String eternal = unique("eternal");
        redis.set(eternal, bytes("v"));
        assertThat(redis.ttlAsync(eternal).join()).isEmpty();
        assertThat(redis.ttlAsync(unique("absent")).join()).isEmpty();
    }

    @Test
    void setIfAbsentAsyncCreatesOnlyOnce() {
        RedisOps redis = redis();
        String key = unique("nx");
        assertThat(redis.setIfAbsentAsync(key, bytes("first"), Duration.ofMinutes(1)).join()).isTrue();
        assertThat(redis.setIfAbsentAsync(key, bytes("second"), Duration.ofMinutes(1)).join()).isFalse();
        assertThat(redis.getString(key)).contains("first");
    }

    @Test
    void unlinkAsyncCountsTheKeysThatExistedAndRefusesNoKeys() {
        RedisOps redis = redis();
        String key = unique("unlink");
        redis.set(key, bytes("v"));
        assertThat(redis.unlinkAsync(key, unique("absent")).join()).isEqualTo(1);
        assertThat(redis.exists(key)).isZero();
        assertThatThrownBy(() -> redis.unlinkAsync()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void scanFindsEveryMatchingKeyOnEveryMasterAndNoOther() {
        RedisOps redis = redis();
        KeySchema schema = KeySchema.of("scan" + UUID.randomUUID().toString().substring(0, 8));
        Set<String> written = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            String key = schema.key("item", Integer.toString(i));
            redis.set(key, bytes("v"), Duration.ofMinutes(1));
            written.add(key);
        }
        redis.set(KeySchema.of("other").key("item", "1"), bytes("v"), Duration.ofMinutes(1));
        Set<String> seen = new HashSet<>();
        List<Integer> pages = new ArrayList<>();
        redis.scan(schema.pattern("item"), 50, page -> {
            pages.add(page.size());
            seen.addAll(page);
        });
        assertThat(seen).isEqualTo(written);
        assertThat(pages).hasSizeGreaterThan(1);
        assertThatThrownBy(() -> redis.scan("*", 0, p -> { })).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void serverTimeIsNow() {
        Instant server = redis().time();
        assertThat(Duration.between(server, Instant.now()).abs()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void configGetAsksEveryMasterAndNoReplica() {
        Map<String, Map<String, String>> byMaster = redis().configGet("appendonly", "appendfsync");

        assertThat(byMaster).hasSize(deployment.masters().size());
        assertThat(byMaster.values()).allSatisfy(values -> assertThat(values)
                .containsEntry("appendonly", "no").containsKey("appendfsync"));
        if (deployment.kind() == Deployment.Kind.CLUSTER) {
            assertThat(byMaster.keySet()).containsExactlyInAnyOrderElementsOf(deployment.masters().stream()
                    .map(m -> m.host() + ":" + m.port()).toList());
        }
        assertThatThrownBy(() -> redis().configGet()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hashesSetsAndSortedSets() {
        RedisOps redis = redis();
        String hash = unique("hash");
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("a", bytes("1"));
        fields.put("b", bytes("2"));
        assertThat(redis.hset(hash, fields)).isEqualTo(2);
        assertThat(redis.hget(hash, "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("2")));
        assertThat(redis.hgetAll(hash)).containsOnlyKeys("a", "b");
        assertThat(redis.hdel(hash, "a", "zz")).isEqualTo(1);
        assertThat(redis.hgetAll(unique("nohash"))).isEmpty();

        String set = unique("set");
        assertThat(redis.sadd(set, "x", "y", "x")).isEqualTo(2);
        assertThat(redis.smembers(set)).containsExactlyInAnyOrder("x", "y");
        assertThat(redis.srem(set, "x")).isEqualTo(1);
        assertThat(redis.scard(set)).isEqualTo(1);

        String zset = unique("zset");
        assertThat(redis.zadd(zset, 3, "c")).isEqualTo(1);
        assertThat(redis.zadd(zset, 1, "a")).isEqualTo(1);
        assertThat(redis.zadd(zset, 2, "b")).isEqualTo(1);
        assertThat(redis.zrangeByScore(zset, 1, 2, 10)).containsExactly("a", "b");
        assertThat(redis.zrangeByScore(zset, 0, 10, 1)).containsExactly("a");
        assertThat(redis.zscore(zset, "c")).hasValue(3.0);
        assertThat(redis.zscore(zset, "none")).isEmpty();
        assertThat(redis.zremRangeByScore(zset, 0, 1.5)).isEqualTo(1);
        assertThat(redis.zrem(zset, "b")).isEqualTo(1);
        assertThat(redis.zcard(zset)).isEqualTo(1);
    }

    @Test
    void streamWorkQueueCommands() {
        RedisOps redis = redis();
        StreamOps streams = redis.streams();
        String stream = unique("stream");
        assertThat(streams.createGroup(stream, "workers", "0")).isTrue();
        assertThat(streams.createGroup(stream, "workers", "0")).as("a second worker's create is harmless").isFalse();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(streams.add(stream, Map.of("n", bytes(Integer.toString(i))), StreamTrim.maxLength(1000)));
        }
        assertThat(streams.length(stream)).isEqualTo(10);
        assertThat(streams.groups(stream)).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("workers");
            assertThat(g.lag()).hasValue(10);
        });

        List<StreamEntry> first = streams.readGroup(stream, "workers", "w1", ">", 4, Duration.ZERO);
        assertThat(first).extracting(StreamEntry::id).containsExactlyElementsOf(ids.subList(0, 4));
        assertThat(first.get(2).fields().get("n")).isEqualTo(bytes("2"));
        assertThat(streams.pendingCount(stream, "workers")).isEqualTo(4);
        assertThat(streams.ack(stream, "workers", List.of(ids.get(0), ids.get(1)))).isEqualTo(2);
        assertThat(streams.ackAsync(stream, "workers", List.of(ids.get(1))).join()).as("acked twice").isZero();
        assertThat(streams.readGroup(stream, "workers", "w1", "0", 10, Duration.ZERO)).extracting(StreamEntry::id)
                .containsExactly(ids.get(2), ids.get(3));
        assertThat(streams.pending(stream, "workers", "-", "+", 10)).extracting(StreamOps.Pending::consumer)
                .containsOnly("w1");

        StreamOps.Claimed claimed = streams.autoClaim(stream, "workers", "w2", Duration.ZERO, "0-0", 10);
        assertThat(claimed.entries()).extracting(StreamEntry::id).containsExactly(ids.get(2), ids.get(3));
        // Delivered by ">", again by reading the own PEL ("0"), and a third time by the claim.
        assertThat(streams.pending(stream, "workers", "-", "+", 10)).allSatisfy(p -> {
            assertThat(p.consumer()).isEqualTo("w2");
            assertThat(p.deliveries()).isEqualTo(3);
        });
        assertThat(streams.consumers(stream, "workers")).extracting(StreamOps.ConsumerInfo::name)
                .containsExactlyInAnyOrder("w1", "w2");
        assertThat(streams.deleteConsumer(stream, "workers", "w1")).isZero();

        List<StreamEntry> waited = streams.readGroup(stream, "workers", "w3", ">", 100, Duration.ofMillis(50));
        assertThat(waited).hasSize(6);
        assertThat(streams.readGroup(stream, "workers", "w3", ">", 100, Duration.ofMillis(50))).isEmpty();
        assertThat(streams.range(stream, "-", "+", 3)).extracting(StreamEntry::id).containsExactlyElementsOf(
                ids.subList(0, 3));
        assertThat(streams.delete(stream, List.of(ids.get(0)))).isEqualTo(1);
        assertThat(streams.trim(stream, StreamTrim.minId(ids.get(5)))).isGreaterThanOrEqualTo(0);
        assertThat(streams.groups(unique("nostream"))).isEmpty();
    }
}
