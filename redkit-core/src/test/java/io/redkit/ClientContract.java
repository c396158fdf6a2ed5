package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.redkit.testing.Deployment;

/**
 * The seeds' client behaviour, pinned on every topology: a miss is a value, a paused server costs the timeout and
 * not a minute, a dead one is reported at once, a full pool answers after its wait, a flushed script still runs,
 * and a timed-out INCR is not sent twice.
 */
abstract class ClientContract {

    private final Deployment deployment;
    private final List<Redkit> clients = new ArrayList<>();

    ClientContract(Deployment deployment) {
        this.deployment = deployment;
    }

    Redkit client(Consumer<RedkitConfig.Builder> customizer) {
        RedkitConfig.Builder builder = RedkitConfig.builder().url(deployment.url());
        customizer.accept(builder);
        Redkit redkit = Redkit.create(builder.build());
        clients.add(redkit);
        return redkit;
    }

    Redkit client() {
        return client(b -> { });
    }

    @AfterEach
    void closeClientsAndHealServers() {
        deployment.healAll();
        clients.forEach(Redkit::close);
        clients.clear();
    }

    static String unique(String what) {
        return KeySchema.of("test").key(what, UUID.randomUUID().toString());
    }

    @Test
    void missIsAnEmptyOptionalNeverAnException() {
        RedisOps redis = client().commands();
        String present = unique("present");
        redis.setString(present, "v", Duration.ofMinutes(1));

        assertThat(redis.get(unique("absent"))).isEmpty();
        assertThat(redis.getString(present)).contains("v");
        assertThat(redis.ttl(unique("absent"))).isEmpty();
        assertThat(redis.mget(List.of(present, unique("absent")))).satisfiesExactly(
                v -> assertThat(v).map(b -> new String(b, StandardCharsets.UTF_8)).contains("v"),
                v -> assertThat(v).isEmpty());
    }

    @Test
    void pausedServerFailsAfterTheTimeoutWithOutcomeUnknown() {
        Redkit redkit = client();
        String key = unique("paused");
        redkit.commands().setString(key, "v", Duration.ofMinutes(1));
        deployment.pauseServerOf(key);

        long start = System.nanoTime();
        assertThatThrownBy(() -> redkit.commands().get(key))
                .isInstanceOfSatisfying(RedisTimeoutException.class, e -> {
                    assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN);
                    assertThat(e.getMessage()).contains("outcome UNKNOWN", "300 ms");
                });
        Duration observed = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("[figures] %s paused-server GET failed after %d ms (timeout 300 ms)%n",
                getClass().getSimpleName(), observed.toMillis());
        assertThat(observed).isBetween(Duration.ofMillis(290), Duration.ofMillis(900));
    }

    @Test
    void commandsWhileDisconnectedAreRejectedAtOnce() {
        Redkit redkit = client();
        String key = unique("down");
        redkit.commands().setString(key, "v", Duration.ofMinutes(1));
        deployment.killServerOf(key);

        // The client learns of the closed socket asynchronously; from then on every call is refused at once.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).untilAsserted(() ->
                assertThatThrownBy(() -> redkit.commands().get(key)).isInstanceOf(RedisUnavailableException.class));
        long worst = 0;
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> redkit.commands().get(key))
                    .isInstanceOfSatisfying(RedisUnavailableException.class,
                            e -> assertThat(e.outcome()).isEqualTo(Outcome.NOT_EXECUTED));
            worst = Math.max(worst, System.nanoTime() - start);
        }
        System.out.printf("[figures] %s disconnected GET rejected in at most %.2f ms%n",
                getClass().getSimpleName(), worst / 1e6);
        assertThat(Duration.ofNanos(worst)).isLessThan(Duration.ofMillis(100));

        deployment.healAll();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> redkit.commands().ping().equals("PONG"));
    }

    @Test
    void aDedicatedConnectionWaitsForTheReplicasOfTheMastersItWroteTo() {
        Redkit redkit = client();
        String key = unique("replicated");
        int replicas = deployment.kind() == Deployment.Kind.STANDALONE ? 0
                : deployment.replicas().size() / deployment.masters().size();
        try (DedicatedConnection c = redkit.dedicated()) {
            c.ops().setString(key, "v", Duration.ofMinutes(1));
            assertThat(c.awaitReplicas(Duration.ofSeconds(1), List.of(key))).isEqualTo(new ReplicaAck(replicas, replicas));
            if (replicas > 0) {
                // The master's replicas get nothing more: they still count, and the write is reported unconfirmed.
                try (var cut = deployment.serverOf(key).cutReplicationLinks()) {
                    c.ops().setString(key, "w", Duration.ofMinutes(1));
                    ReplicaAck ack = c.awaitReplicas(Duration.ofMillis(300), List.of(key));
                    assertThat(ack).isEqualTo(new ReplicaAck(replicas, 0));
                    assertThat(ack.confirmed()).isFalse();
                }
            }
        }
        try (DedicatedConnection c = redkit.dedicated()) {
            assertThatThrownBy(() -> c.awaitReplicas(Duration.ZERO, List.of(key)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
            assertThatThrownBy(() -> c.awaitReplicas(Duration.ofSeconds(61), List.of(key)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        }
    }

    @Test
    void fullPoolAnswersWithPoolExhaustedAfterThePoolWait() {
        Redkit redkit = client(b -> b.dedicatedPool(new DedicatedPoolConfig(2, 2, Duration.ofMillis(200))));
        try (DedicatedConnection a = redkit.dedicated(); DedicatedConnection b = redkit.dedicated()) {
            assertThat(a.ops().ping()).isEqualTo("PONG");
            assertThat(b.ops().ping()).isEqualTo("PONG");
            long start = System.nanoTime();
            assertThatThrownBy(redkit::dedicated).isInstanceOfSatisfying(PoolExhaustedException.class, e -> {
                assertThat(e.outcome()).isEqualTo(Outcome.NOT_EXECUTED);
                assertThat(e.poolSize()).isEqualTo(2);
            });
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("[figures] %s pool exhausted after %d ms (pool wait 200 ms)%n",
                    getClass().getSimpleName(), waited.toMillis());
            assertThat(waited).isBetween(Duration.ofMillis(195), Duration.ofMillis(800));
        }
        try (DedicatedConnection again = redkit.dedicated()) {
            assertThat(again.ops().ping()).isEqualTo("PONG");
        }
        assertThat(redkit.meters().get("redkit.pool.exhausted").counter().count()).isEqualTo(1.0);
    }

    @Test
    void blockingReadOnADedicatedConnectionDoesNotStallTheSharedOne() throws Exception {
        Redkit redkit = client();
        String list = unique("queue");
        try (DedicatedConnection dedicated = redkit.dedicated()) {
            RedisOps blocking = dedicated.ops().withTimeout(Duration.ofSeconds(5));
            var popped = blocking.executeAsync("BLPOP", Idempotency.NON_IDEMPOTENT, c -> c.blpop(4, list));
            for (int i = 0; i < 10; i++) {
                assertThat(redkit.commands().ping()).isEqualTo("PONG");
            }
            redkit.commands().execute("RPUSH", Idempotency.NON_IDEMPOTENT,
                    c -> c.rpush(list, "job".getBytes(StandardCharsets.UTF_8)));
            assertThat(new String(popped.get().getValue(), StandardCharsets.UTF_8)).isEqualTo("job");
        }
    }

    @Test
    void declaredScriptSurvivesScriptFlush() {
        Redkit redkit = client();
        RedisScript<Long> addAndGet = RedisScript.of("add-and-get",
                "return redis.call('INCRBY', KEYS[1], ARGV[1])", ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);
        String key = unique("script");
        assertThat(redkit.commands().eval(addAndGet, List.of(key), "5")).isEqualTo(5L);

        double reloadsBefore = redkit.meters().get("redkit.script.reloads").counter().count();
        double failuresBefore = failures(redkit);
        deployment.onEveryDataNode("SCRIPT", "FLUSH");
        assertThat(redkit.commands().eval(addAndGet, List.of(key), "5")).isEqualTo(10L);
        assertThat(redkit.commands().eval(addAndGet, List.of(key), "5")).isEqualTo(15L);
        assertThat(redkit.meters().get("redkit.script.reloads").counter().count() - reloadsBefore).isEqualTo(1.0);
        deployment.onEveryDataNode("SCRIPT", "FLUSH");
        assertThat(redkit.commands().evalAsync(addAndGet, List.of(key), "1".getBytes(StandardCharsets.UTF_8))
                .join()).isEqualTo(16L);
        assertThat(redkit.meters().get("redkit.script.reloads").counter().count() - reloadsBefore).isEqualTo(2.0);
        // A reload is not a failed command: counted as one, every restart or failover would look like an outage.
        assertThat(failures(redkit)).isEqualTo(failuresBefore);
    }

    private static double failures(Redkit redkit) {
        return redkit.meters().find("redkit.command.failures").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    @Test
    void timedOutIncrIsNotRetriedSoTheCounterStaysExact() {
        Redkit redkit = client(b -> b.backgroundProfile(CommandProfile.BACKGROUND.withTimeout(Duration.ofMillis(200))));
        String counter = unique("counter");
        redkit.commands().setString(counter, "0", Duration.ofMinutes(1));
        deployment.pauseServerOf(counter);
        // Both profiles: the background one retries idempotent commands after a timeout, but never INCR.
        assertThatThrownBy(() -> redkit.commands().incr(counter)).isInstanceOf(RedisTimeoutException.class);
        assertThatThrownBy(() -> redkit.background().incr(counter)).isInstanceOf(RedisTimeoutException.class);
        deployment.healAll();
        // A PING on the same connection is answered after everything sent before it.
        assertThat(redkit.commands().ping()).isEqualTo("PONG");
        assertThat(redkit.commands().getString(counter)).contains("2");
        assertThat(redkit.meters().find("redkit.command.retries").counter()).isNull();
    }

    @Test
    void backgroundProfileRetriesAnIdempotentReadAfterATimeout() {
        Redkit redkit = client(b -> b.backgroundProfile(CommandProfile.BACKGROUND.withTimeout(Duration.ofMillis(100))));
        String key = unique("bg");
        redkit.commands().setString(key, "v", Duration.ofMinutes(1));
        deployment.pauseServerOf(key);
        assertThatThrownBy(() -> redkit.background().get(key)).isInstanceOf(RedisTimeoutException.class);
        assertThat(redkit.meters().get("redkit.command.retries").tag("profile", "background").counter().count())
                .isEqualTo(3.0);
    }

    @Test
    void escapedKeysRoundTripAndScanMatchFindsOnlyTheirOwn() {
        RedisOps redis = client().commands();
        KeySchema schema = KeySchema.of("kt-" + UUID.randomUUID().toString().substring(0, 8));
        List<String> hostile = List.of("{tag}", "*", "a?b", "[x]", "line\nbreak", "", "заказ", "a:b");
        for (String part : hostile) {
            String key = schema.key("item", part);
            redis.setString(key, part, Duration.ofMinutes(1));
            redis.setString(schema.child(key, "meta"), part, Duration.ofMinutes(1));
            assertThat(redis.getString(key)).contains(part);
        }
        redis.setString(schema.key("other", "*"), "x", Duration.ofMinutes(1));

        assertThat(scan(redis, schema.pattern("item", "*")))
                .containsExactlyInAnyOrder(schema.key("item", "*"), schema.child(schema.key("item", "*"), "meta"));
        assertThat(scan(redis, schema.pattern("item"))).hasSize(hostile.size() * 2);
    }

    @Test
    void scriptOverAnEntityAndItsChildRunsInOneSlot() {
        RedisOps redis = client().commands();
        KeySchema locks = KeySchema.of("lock");
        String lock = locks.key("job", UUID.randomUUID().toString());
        String fence = locks.child(lock, "fence");
        RedisScript<Long> fencedAcquire = RedisScript.of("fenced-acquire-sketch",
                "redis.call('SET', KEYS[1], ARGV[1], 'PX', 10000) return redis.call('INCR', KEYS[2])",
                ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);
        assertThat(redis.eval(fencedAcquire, List.of(lock, fence), "owner")).isEqualTo(1L);
        assertThat(redis.getString(lock)).contains("owner");
        redis.delete(lock, fence);
    }

    private static Set<String> scan(RedisOps redis, String pattern) {
        Set<String> found = new HashSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor current = cursor;
            KeyScanCursor<String> page = redis.execute("SCAN", Idempotency.IDEMPOTENT,
                    c -> c.scan(current, ScanArgs.Builder.matches(pattern).limit(500)));
            found.addAll(page.getKeys());
            cursor = page;
        } while (!cursor.isFinished());
        return found;
    }

    static Optional<String> string(Optional<byte[]> value) {
        return value.map(v -> new String(v, StandardCharsets.UTF_8));
    }

    @Test
    void publishedMessageReachesEverySubscriberUntilItUnsubscribes() {
        Redkit subscriber = client();
        Redkit publisher = client();
        String channel = unique("signals");
        List<String> first = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> second = new java.util.concurrent.CopyOnWriteArrayList<>();
        RedisPubSub.Subscription a = subscriber.pubSub().subscribe(channel,
                (ch, m) -> first.add(new String(m, StandardCharsets.UTF_8)));
        subscriber.pubSub().subscribe(channel, (ch, m) -> second.add(new String(m, StandardCharsets.UTF_8)));

        publisher.commands().publish(channel, "one".getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(5)).until(() -> first.size() == 1 && second.size() == 1);
        a.close();
        publisher.commands().publish(channel, "two".getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(5)).until(() -> second.size() == 2);

        assertThat(first).containsExactly("one");
        assertThat(second).containsExactly("one", "two");
    }

    @Test
    void subscribingToAnEmptyChannelIsRefused() {
        assertThatThrownBy(() -> client().pubSub().subscribe("", (ch, m) -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("channel");
    }
}
