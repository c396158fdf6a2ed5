package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.redkit.KeySchema;
import io.redkit.Outcome;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.RedkitConfig;
import io.redkit.testing.CommandLog;
import io.redkit.testing.Deployment;
import io.redkit.testing.RedisServer;

/**
 * DESIGN §6 as claims, pinned on every topology: a load is one round trip that renews the idle timeout and never
 * the absolute lifetime; bad ids never reach Redis; rotation kills the old id; revoke-all ends one user's sessions
 * and nobody else's; a corrupt session ends cleanly; an outage fails closed within the timeout and turns health
 * NOT READY. Wall-clock time is moved by a {@link MutableClock}, never waited for.
 */
abstract class SessionContract {

    static final Account ADA = new Account("Ada", List.of("user"));
    static final Account ADA_ADMIN = new Account("Ada", List.of("user", "admin"));

    private final Deployment deployment;
    private final List<Redkit> clients = new ArrayList<>();
    // Every client of this test sends its name, so a CommandLog counts what this test sent and nothing else.
    private final String clientName = CommandLog.uniqueClientName("session-test");

    SessionContract(Deployment deployment) {
        this.deployment = deployment;
    }

    Redkit client() {
        return client(RedkitClock.SYSTEM);
    }

    Redkit client(RedkitClock clock) {
        Redkit redkit = Redkit.create(RedkitConfig.builder().url(deployment.url()).clientName(clientName)
                .clock(clock).build());
        clients.add(redkit);
        return redkit;
    }

    SessionStore<Account> store(Redkit redkit) {
        return store(redkit, b -> b);
    }

    SessionStore<Account> store(Redkit redkit, UnaryOperator<SessionConfig.Builder> settings) {
        return SessionStore.builder(redkit, Account.class).config(settings.apply(SessionConfig.builder()).build())
                .build();
    }

    static String user() {
        return "user-" + UUID.randomUUID();
    }

    static String sessionKey(SessionId id) {
        return KeySchema.of(SessionConfig.DEFAULT_NAMESPACE).key(id.digest());
    }

    static String indexKey(String userId) {
        return KeySchema.of(SessionConfig.DEFAULT_NAMESPACE + ".user").key(userId);
    }

    @AfterEach
    void closeAndHeal() {
        deployment.healAll();
        clients.forEach(Redkit::close);
        clients.clear();
    }

    @Test
    void createdSessionLoadsWithItsUserAndData() {
        SessionStore<Account> store = store(client());
        String user = user();
        Session<Account> s = store.create(user, ADA);

        Session<Account> loaded = store.load(s.id().value()).orElseThrow();
        assertThat(loaded.id()).isEqualTo(s.id());
        assertThat(loaded.userId()).isEqualTo(user);
        assertThat(loaded.data()).isEqualTo(ADA);
        assertThat(loaded.createdAt()).isEqualTo(s.createdAt());
        assertThat(loaded.absoluteExpiry()).isEqualTo(s.createdAt().plus(Duration.ofHours(12)));
        assertThat(loaded.toString()).doesNotContain(s.id().value()).doesNotContain("Ada");
    }

    @Test
    void loadIsOneRoundTripThatRenewsTheIdleTimeout() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit, b -> b.idleTimeout(Duration.ofMinutes(10)));
        Session<Account> s = store.create(user(), ADA);
        String key = sessionKey(s.id());
        redkit.commands().expire(key, Duration.ofSeconds(5));
        Map<String, Long> calls;
        try (CommandLog log = CommandLog.start(List.of(deployment.serverOf(key)))) {
            assertThat(store.load(s.id())).isPresent();
            calls = log.dataCommandsOf(clientName);
        }
        System.out.printf("[figures] %s one load sent: %s%n", getClass().getSimpleName(), calls);
        // Redis counts the commands a script runs too: one EVALSHA from the client, its GET and PEXPIRE inside.
        assertThat(calls).containsOnlyKeys("evalsha", "get", "pexpire").containsEntry("evalsha", 1L)
                .containsEntry("get", 1L).containsEntry("pexpire", 1L);
        assertThat(redkit.commands().ttl(key).orElseThrow()).isGreaterThan(Duration.ofMinutes(9));
    }

    @Test
    void garbageForgedOversizedAndWronglyEncodedIdsNeverReachRedis() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        String valid = store.create(user(), ADA).id().value();
        List<String> bad = new ArrayList<>(List.of("", "garbage", valid.substring(1), valid + "A", valid + "=",
                valid.substring(0, 42) + "=", "+" + valid.substring(1), "{" + valid.substring(1, 42) + "}",
                "*" + valid.substring(1), "é" + valid.substring(1), "\r\n" + valid.substring(2),
                valid.substring(0, 42) + "B", "x".repeat(1 << 20), "sess:{" + valid + "}"));
        try (CommandLog log = CommandLog.start(deployment.masters())) {
            for (String id : bad) {
                assertThat(store.load(id)).as("load %s", id.length() > 50 ? id.length() + " chars" : id).isEmpty();
                assertThat(store.revoke(id)).isFalse();
            }
            assertThat(store.load((String) null)).isEmpty();

            assertThat(log.dataCommandsOf(clientName)).as("commands sent for %d bad ids", bad.size()).isEmpty();
        }
        assertThat(redkit.meters().get("redkit.session.loads").tag("result", "invalid").counter().count())
                .isEqualTo(bad.size() * 2 + 1);
    }

    @Test
    void expiredSessionCannotBeLoaded() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit, b -> b.idleTimeout(Duration.ofMillis(200))
                .absoluteLifetime(Duration.ofHours(1)));
        Session<Account> s = store.create(user(), ADA);
        // Polled without loading: a load would renew the idle timeout it waits out.
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(sessionKey(s.id())) == 0);

        assertThat(store.load(s.id())).isEmpty();
    }

    @Test
    void absoluteLifetimeHoldsDespiteActivity() {
        MutableClock clock = new MutableClock();
        Redkit redkit = client(clock);
        SessionStore<Account> store = store(redkit, b -> b.idleTimeout(Duration.ofMinutes(30))
                .absoluteLifetime(Duration.ofHours(1)));
        Session<Account> s = store.create(user(), ADA);
        String key = sessionKey(s.id());

        for (int minute = 10; minute <= 50; minute += 10) {
            clock.advance(Duration.ofMinutes(10));
            assertThat(store.load(s.id())).as("active at minute %d", minute).isPresent();
        }
        // Ten minutes of the hour are left: renewal gives the key no more, not the idle timeout's thirty.
        Duration ttl = redkit.commands().ttl(key).orElseThrow();
        assertThat(ttl).isLessThanOrEqualTo(Duration.ofMinutes(10)).isGreaterThan(Duration.ofMinutes(9));

        clock.advance(Duration.ofMinutes(11));
        assertThat(store.load(s.id())).as("an hour and a minute after creation, however busy").isEmpty();
        assertThat(redkit.commands().exists(key)).isZero();
        assertThat(redkit.meters().get("redkit.session.loads").tag("result", "expired").counter().count())
                .isEqualTo(1);
    }

    @Test
    void afterRotationTheOldIdIsDeadAndTheNewOneCarriesTheData() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        String user = user();
        Session<Account> current = store.create(user, ADA);
        int hops = 0;
        boolean crossedServers = false;
        // On Cluster, rotate until the new id lives on another master than the old: no RENAME could do that.
        while (!crossedServers && hops < 30) {
            Session<Account> next = store.rotate(current, user, ADA_ADMIN).orElseThrow();
            hops++;
            crossedServers = deployment.serverOf(sessionKey(current.id())).port()
                    != deployment.serverOf(sessionKey(next.id())).port();

            assertThat(next.id()).isNotEqualTo(current.id());
            assertThat(store.load(current.id())).as("the old id after rotation").isEmpty();
            Session<Account> loaded = store.load(next.id()).orElseThrow();
            assertThat(loaded.data()).isEqualTo(ADA_ADMIN);
            assertThat(loaded.userId()).isEqualTo(user);
            assertThat(loaded.absoluteExpiry()).as("rotation never extends the lifetime")
                    .isEqualTo(current.absoluteExpiry());
            current = next;
            if (deployment.kind() != Deployment.Kind.CLUSTER) {
                break;
            }
        }
        if (deployment.kind() == Deployment.Kind.CLUSTER) {
            assertThat(crossedServers).as("a rotation moved the session to another master").isTrue();
        }
        assertThat(redkit.commands().zrangeByScore(indexKey(user), 0, Double.MAX_VALUE, 100))
                .containsExactly(current.id().digest());
    }

    @Test
    void loginRotationChangesUserAndStartsAFreshLifetime() {
        MutableClock clock = new MutableClock();
        Redkit redkit = client(clock);
        SessionStore<Account> store = store(redkit);
        String anonymous = user();
        String ada = user();
        Session<Account> before = store.create(anonymous, new Account("guest", List.of()));
        clock.advance(Duration.ofHours(1));

        Session<Account> after = store.rotate(before, ada, ADA).orElseThrow();

        assertThat(store.load(before.id())).isEmpty();
        assertThat(after.userId()).isEqualTo(ada);
        assertThat(after.absoluteExpiry()).as("twelve hours from the login, an hour after the anonymous session's")
                .isBetween(before.absoluteExpiry().plus(Duration.ofHours(1)),
                        before.absoluteExpiry().plus(Duration.ofHours(1)).plusSeconds(5));
        assertThat(redkit.commands().zcard(indexKey(anonymous))).isZero();
        assertThat(redkit.commands().zrangeByScore(indexKey(ada), 0, Double.MAX_VALUE, 10))
                .containsExactly(after.id().digest());
    }

    @Test
    void rotatingOrUpdatingARevokedSessionBringsNothingBack() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        String user = user();
        Session<Account> s = store.create(user, ADA);
        assertThat(store.revoke(s)).isTrue();

        assertThat(store.rotate(s)).isEmpty();
        assertThat(store.update(s, ADA_ADMIN)).isInstanceOf(SessionUpdate.Ended.class);
        assertThat(store.load(s.id())).isEmpty();
        assertThat(redkit.commands().exists(indexKey(user))).as("nothing listed").isZero();
    }

    @Test
    void updateReplacesTheDataAndKeepsTheLifetimes() {
        SessionStore<Account> store = store(client());
        Session<Account> s = store.create(user(), ADA);

        Session<Account> updated = store.update(s, ADA_ADMIN).written().orElseThrow();

        Session<Account> loaded = store.load(s.id()).orElseThrow();
        assertThat(loaded.data()).isEqualTo(ADA_ADMIN);
        assertThat(loaded.absoluteExpiry()).isEqualTo(s.absoluteExpiry()).isEqualTo(updated.absoluteExpiry());
        assertThat(loaded.createdAt()).isEqualTo(s.createdAt());
    }

    @Test
    void rotationCarriesWhatIsStoredNotTheCallersCopy() {
        SessionStore<Account> store = store(client());
        Session<Account> s = store.create(user(), ADA);
        assertThat(store.update(s, ADA_ADMIN).written()).isPresent();

        Session<Account> rotated = store.rotate(s).orElseThrow(); // s still holds ADA: read before the update

        assertThat(rotated.data()).isEqualTo(ADA_ADMIN);
        assertThat(store.load(rotated.id()).orElseThrow().data()).as("the update is not undone").isEqualTo(ADA_ADMIN);
        assertThat(store.load(s.id())).isEmpty();
    }

    @Test
    void anUpdateOverARevisionItDidNotReadIsAConflictAndWritesNothing() {
        SessionStore<Account> store = store(client());
        Session<Account> s = store.create(user(), ADA);
        Session<Account> first = store.update(s, ADA_ADMIN).written().orElseThrow();
        assertThat(first.revision()).isEqualTo(s.revision() + 1);

        SessionUpdate<Account> second = store.update(s, new Account("Eve", List.of())); // read before the first

        assertThat(second).isInstanceOf(SessionUpdate.Conflict.class);
        Session<Account> current = ((SessionUpdate.Conflict<Account>) second).current();
        assertThat(current.data()).isEqualTo(ADA_ADMIN);
        assertThat(current.revision()).isEqualTo(first.revision());
        assertThat(store.load(s.id()).orElseThrow().data()).isEqualTo(ADA_ADMIN);
        assertThat(store.update(current, ADA).written()).as("over the revision just read").isPresent();
    }

    @Test
    void aCallersCopyCannotMoveTheLifetimes() {
        MutableClock clock = new MutableClock();
        SessionStore<Account> store = store(client(clock), b -> b.absoluteLifetime(Duration.ofHours(1)));
        Session<Account> s = store.create(user(), ADA);
        Session<Account> forged = new Session<>(s.id(), s.userId(), ADA_ADMIN, s.createdAt(),
                s.absoluteExpiry().plus(Duration.ofDays(30)), s.revision());

        assertThat(store.update(forged, ADA_ADMIN)).as("its lifetime is not the stored one")
                .isInstanceOf(SessionUpdate.Conflict.class);
        Session<Account> rotated = store.rotate(forged).orElseThrow();
        assertThat(rotated.absoluteExpiry()).isEqualTo(s.absoluteExpiry());

        clock.advance(Duration.ofHours(1).plusSeconds(1));
        assertThat(store.load(rotated.id())).as("ended at the stored lifetime").isEmpty();
    }

    @Test
    void sixteenThreadsIncrementingOneSessionLoseNothing() throws Exception {
        SessionStore<Integer> store = SessionStore.builder(client(), Integer.class).build();
        Session<Integer> s = store.create(user(), 0);
        int threads = 16;
        int increments = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < increments; i++) {
                        store.update(s.id(), n -> n + 1).orElseThrow();
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        Session<Integer> loaded = store.load(s.id()).orElseThrow();
        System.out.printf("[figures] %s %d threads x %d increments of one session: %d kept, revision %d, %.1f s%n",
                getClass().getSimpleName(), threads, increments, loaded.data(), loaded.revision(),
                (System.nanoTime() - start) / 1e9);
        assertThat(loaded.data()).isEqualTo(threads * increments);
        assertThat(loaded.revision()).isEqualTo(threads * increments);
    }

    @Test
    void updatesRacingRotationsLoseNothing() throws Exception {
        SessionStore<Integer> store = SessionStore.builder(client(), Integer.class).build();
        AtomicReference<SessionId> current =
                new AtomicReference<>(store.create(user(), 0).id());
        AtomicInteger applied = new AtomicInteger();
        AtomicInteger rotations = new AtomicInteger();
        AtomicInteger duringUpdates = new AtomicInteger();
        AtomicInteger gaveUp = new AtomicInteger();
        AtomicBoolean updating = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Future<?>> updaters = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                updaters.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        // Rotated away meanwhile: the increment was not applied; take the new id and apply it there.
                        while (store.update(current.get(), n -> n + 1).isEmpty()) {
                            Thread.onSpinWait();
                        }
                        applied.incrementAndGet();
                        // Requests, not a loop: a user's next request comes after a pause.
                        LockSupport.parkNanos(
                                ThreadLocalRandom.current().nextLong(1_000_000));
                    }
                }));
            }
            List<Future<?>> rotators = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                rotators.add(pool.submit(() -> {
                    // Each rotator rotates at least once, and goes on while the updates run.
                    for (boolean rotated = false; !rotated || updating.get(); ) {
                        SessionId id = current.get();
                        try {
                            Optional<Session<Integer>> next = store.load(id).flatMap(store::rotate);
                            if (next.isPresent()) {
                                current.compareAndSet(id, next.get().id());
                                rotations.incrementAndGet();
                                duringUpdates.addAndGet(updating.get() ? 1 : 0);
                                rotated = true;
                            }
                        } catch (SessionConflictException e) {
                            gaveUp.incrementAndGet(); // updates overtook it for 5 s: nothing changed, try again
                        }
                    }
                }));
            }
            for (Future<?> f : updaters) {
                f.get(120, TimeUnit.SECONDS);
            }
            updating.set(false);
            for (Future<?> f : rotators) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            updating.set(false);
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        int kept = store.load(current.get()).orElseThrow().data();
        System.out.printf("[figures] %s 16 threads updating while 4 rotate: %d increments applied, %d kept; %d"
                + " rotations, %d of them while the updates ran (%d gave up after 5 s)%n", getClass().getSimpleName(),
                applied.get(), kept, rotations.get(), duringUpdates.get(), gaveUp.get());
        assertThat(rotations.get()).isGreaterThanOrEqualTo(4);
        assertThat(kept).isEqualTo(applied.get()).isEqualTo(1600);
    }

    @Test
    void nothingInRedisIsAUsableSessionId() {
        Redkit redkit = client();
        String namespace = "digest-" + UUID.randomUUID().toString().substring(0, 8);
        SessionStore<Account> store = store(redkit, b -> b.namespace(namespace).upgradeRawIdKeys(false));
        List<Session<Account>> live = new ArrayList<>();
        String user = user();
        for (int i = 0; i < 5; i++) {
            live.add(store.create(user, ADA));
        }
        live.add(store.rotate(live.get(0)).orElseThrow());
        live.add(store.update(live.get(1), ADA_ADMIN).written().orElseThrow());

        // Every key of the store (sessions and the user's index), its name, its value, its index members.
        List<String> seen = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (var server : deployment.masters()) {
            keys.addAll(scan(server, namespace + "*"));
        }
        assertThat(keys).hasSizeGreaterThan(live.size() - 2); // the live sessions and the index
        for (String key : keys) {
            seen.add(key);
            if (key.startsWith(namespace + ".user")) {
                seen.addAll(redkit.commands().zrangeByScore(key, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                        1000));
            } else {
                redkit.commands().getString(key).ifPresent(seen::add);
            }
        }
        Matcher tokens = Pattern.compile("[A-Za-z0-9_-]{43}")
                .matcher(String.join(" ", seen));
        int tried = 0;
        while (tokens.find()) {
            tried++;
            assertThat(store.load(tokens.group())).as("a string read from Redis used as a cookie").isEmpty();
        }
        System.out.printf("[figures] %s %d keys read back; %d id-shaped strings in them, none loads a session%n",
                getClass().getSimpleName(), keys.size(), tried);
        assertThat(tried).as("the digests are there, and id-shaped").isGreaterThanOrEqualTo(live.size() - 2);
        for (Session<Account> s : live.subList(2, live.size())) {
            assertThat(String.join(" ", seen)).doesNotContain(s.id().value());
            assertThat(store.load(s.id())).isPresent();
        }
    }

    @Test
    void aDigestSentAsACookieEndsNothingWhileRawIdKeysAreLookedFor() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit); // raw-id keys looked for: the default
        Session<Account> victim = store.create(user(), ADA);
        String digest = victim.id().digest(); // what anyone who reads Redis sees, in a key name or the index

        assertThat(store.load(digest)).isEmpty();
        assertThat(store.revoke(digest)).isFalse();
        assertThat(store.load(victim.id())).as("the session whose key the digest names").isPresent();

        // Nor is a first-format value of another id, copied under this id's raw key, taken or ended.
        SessionId other = SessionId.generate();
        String otherRaw = KeySchema.of(SessionConfig.DEFAULT_NAMESPACE).key(other.value());
        long now = System.currentTimeMillis();
        redkit.commands().set(otherRaw, firstFormat(victim.id(), victim.userId(), now, now + 60_000),
                Duration.ofMinutes(1));
        assertThat(store.load(other)).isEmpty();
        assertThat(store.revoke(other.value())).isFalse();
        assertThat(redkit.commands().exists(otherRaw)).isEqualTo(1);
    }

    /** A session as a release before digests stored it: the first format (no revision). */
    private static byte[] firstFormat(SessionId id, String user, long now, long exp) {
        return ("{\"v\":1,\"exp\":" + exp + ",\"iat\":" + now + ",\"dv\":1,\"sid\":\"" + id.digest().substring(0, 16)
                + "\",\"uid\":\"" + user + "\"}\n{\"name\":\"Ada\",\"roles\":[\"user\"]}").getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> scan(RedisServer server, String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) server.command("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = String.valueOf(reply.get(0));
            for (Object key : (List<?>) reply.get(1)) {
                keys.add(String.valueOf(key));
            }
        } while (!"0".equals(cursor));
        return keys;
    }

    @Test
    void aSessionUnderItsRawIdFromAnEarlierReleaseMovesToItsDigestOnItsNextLoad() {
        MutableClock clock = new MutableClock();
        Redkit redkit = client(clock);
        String namespace = "upgrade-" + UUID.randomUUID().toString().substring(0, 8);
        SessionStore<Account> store = store(redkit, b -> b.namespace(namespace));
        String user = user();
        SessionId id = SessionId.generate();
        String rawKey = KeySchema.of(namespace).key(id.value());
        String index = KeySchema.of(namespace + ".user").key(user);
        long now = clock.wallMillis();
        long exp = now + Duration.ofHours(12).toMillis();
        // As the earlier release wrote it: the first format, under the raw id, listed by its raw id.
        redkit.commands().set(rawKey, firstFormat(id, user, now, exp), Duration.ofMinutes(30));
        redkit.commands().zadd(index, exp, id.value());

        Session<Account> loaded = store.load(id).orElseThrow();

        assertThat(loaded.data()).isEqualTo(ADA);
        assertThat(loaded.absoluteExpiry().toEpochMilli()).isEqualTo(exp);
        assertThat(redkit.commands().exists(rawKey)).as("the raw-id key is gone").isZero();
        assertThat(redkit.commands().exists(KeySchema.of(namespace).key(id.digest()))).isEqualTo(1);
        assertThat(redkit.commands().zrangeByScore(index, 0, Double.MAX_VALUE, 10)).containsExactly(id.digest());
        assertThat(store.update(loaded, ADA_ADMIN).written()).isPresent();
        assertThat(store.load(id).orElseThrow().data()).isEqualTo(ADA_ADMIN);
        assertThat(redkit.meters().get("redkit.session.upgraded").counter().count()).isEqualTo(1);

        // Turned off, or one absolute lifetime after the namespace's first look: a raw-id key is never read.
        SessionId other = SessionId.generate();
        String otherRaw = KeySchema.of(namespace).key(other.value());
        redkit.commands().set(otherRaw, firstFormat(other, user, now, exp), Duration.ofMinutes(30));
        assertThat(store(redkit, b -> b.namespace(namespace).upgradeRawIdKeys(false)).load(other)).isEmpty();
        clock.advance(Duration.ofHours(12).plusSeconds(1));
        assertThat(store(redkit, b -> b.namespace(namespace)).load(other)).isEmpty();
        assertThat(redkit.commands().exists(otherRaw)).as("not even looked at").isEqualTo(1);
    }

    @Test
    void revokeEndsTheSessionAtOnce() {
        SessionStore<Account> store = store(client());
        Session<Account> s = store.create(user(), ADA);

        assertThat(store.revoke(s.id().value())).isTrue();
        assertThat(store.load(s.id())).isEmpty();
        assertThat(store.revoke(s.id().value())).as("a second logout finds nothing").isFalse();
    }

    @Test
    void revokeAllEndsThreeSessionsOfOneUserAndNoneOfAnothers() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        String ada = user();
        String bob = user();
        List<Session<Account>> adas = List.of(store.create(ada, ADA), store.create(ada, ADA), store.create(ada, ADA));
        Session<Account> bobs = store.create(bob, new Account("Bob", List.of("user")));

        assertThat(store.revokeAll(ada)).isEqualTo(3);

        adas.forEach(s -> assertThat(store.load(s.id())).isEmpty());
        assertThat(store.load(bobs.id())).isPresent();
        assertThat(redkit.commands().exists(indexKey(ada))).isZero();
        assertThat(redkit.commands().zcard(indexKey(bob))).isEqualTo(1);
        assertThat(store.revokeAll(ada)).isZero();
    }

    @Test
    void userIndexPrunesItselfAndNeverOutlivesItsSessions() {
        MutableClock clock = new MutableClock();
        Redkit redkit = client(clock);
        SessionStore<Account> store = store(redkit, b -> b.absoluteLifetime(Duration.ofHours(1)));
        String user = user();
        Session<Account> first = store.create(user, ADA);
        assertThat(redkit.commands().ttl(indexKey(user)).orElseThrow()).isLessThanOrEqualTo(Duration.ofHours(1));
        clock.advance(Duration.ofHours(2)); // the first session's absolute lifetime is over

        Session<Account> second = store.create(user, ADA);

        assertThat(redkit.commands().zrangeByScore(indexKey(user), 0, Double.MAX_VALUE, 10))
                .containsExactly(second.id().digest()).doesNotContain(first.id().digest());
        assertThat(redkit.commands().ttl(indexKey(user)).orElseThrow()).as("the index expires with its last session")
                .isLessThanOrEqualTo(Duration.ofHours(1)).isGreaterThan(Duration.ofMinutes(59));
    }

    @Test
    void corruptStoredSessionEndsCleanly() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        List<byte[]> corrupt = List.of("garbage".getBytes(StandardCharsets.UTF_8), new byte[0],
                "{\"v\":1,\"exp\":99999999999999}\n{}".getBytes(StandardCharsets.UTF_8));
        for (byte[] value : corrupt) {
            Session<Account> s = store.create(user(), ADA);
            redkit.commands().set(sessionKey(s.id()), value);

            assertThat(store.load(s.id())).isEmpty();
            assertThat(redkit.commands().exists(sessionKey(s.id()))).as("ended").isZero();
        }
        // A valid header whose payload is not an Account: the codec fails, the session ends.
        Session<Account> s = store.create(user(), ADA);
        SessionStore<String> strings = SessionStore.builder(redkit, String.class).build();
        byte[] raw = redkit.commands().get(sessionKey(s.id())).orElseThrow();
        String text = new String(raw, StandardCharsets.UTF_8);
        redkit.commands().set(sessionKey(s.id()), (text.substring(0, text.indexOf('\n') + 1) + "[1,2,")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(store.load(s.id())).isEmpty();
        assertThat(strings.load(s.id())).isEmpty();
        // Not a string at all under the key: ended, and not an outage.
        Session<Account> hashed = store.create(user(), ADA);
        redkit.commands().delete(sessionKey(hashed.id()));
        redkit.commands().hset(sessionKey(hashed.id()), Map.of("f", new byte[] {1}));
        assertThat(store.load(hashed.id())).isEmpty();
        assertThat(redkit.commands().exists(sessionKey(hashed.id()))).isZero();
        assertThat(store.health().isReady()).isTrue();

        assertThat(redkit.meters().get("redkit.session.loads").tag("result", "corrupt").counter().count())
                .isEqualTo(corrupt.size() + 2);
    }

    @Test
    void anotherSessionsValueUnderThisIdIsNeverServed() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        Session<Account> ada = store.create(user(), ADA);
        Session<Account> bob = store.create(user(), new Account("Bob", List.of("user")));
        byte[] adas = redkit.commands().get(sessionKey(ada.id())).orElseThrow();
        redkit.commands().set(sessionKey(bob.id()), adas, Duration.ofMinutes(5)); // a restore mix-up, a bug

        assertThat(store.load(bob.id())).as("Bob's cookie never gets Ada's session").isEmpty();
        assertThat(store.load(ada.id()).orElseThrow().data()).isEqualTo(ADA);
    }

    @Test
    void aSessionFromANewerReleaseIsLeftAlone() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        Session<Account> s = store.create(user(), ADA);
        long exp = s.absoluteExpiry().toEpochMilli();
        redkit.commands().set(sessionKey(s.id()), ("{\"v\":3,\"exp\":" + exp + ",\"new\":true}\n{}")
                .getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(5));
        SessionStore<Account> newer = store(redkit, b -> b.dataVersion(2));
        Session<Account> v2 = newer.create(user(), ADA);

        assertThat(store.load(s.id())).isEmpty();
        assertThat(redkit.commands().exists(sessionKey(s.id()))).as("kept for the newer release").isEqualTo(1);
        assertThat(store.load(v2.id())).as("data version 2 read by a version 1 store").isEmpty();
        assertThat(newer.load(v2.id())).isPresent();
    }

    @Test
    void tooLargeSessionIsRefusedBeforeRedis() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit, b -> b.maxSessionBytes(256));
        try (CommandLog log = CommandLog.start(deployment.masters())) {
            assertThatThrownBy(() -> store.create(user(), new Account("x".repeat(300), List.of())))
                    .isInstanceOf(SessionTooLargeException.class).hasMessageContaining("256");
            assertThat(log.dataCommandsOf(clientName)).isEmpty();
        }
    }

    @Test
    void pausedRedisFailsClosedWithinTheTimeoutThenAtOnceUntilItAnswers() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        TokenDenyList deny = TokenDenyList.create(redkit, DenyListConfig.defaults());
        String user = user();
        Session<Account> s = store.create(user, ADA);
        deployment.pauseServerOf(sessionKey(s.id()));

        long start = System.nanoTime();
        assertThatThrownBy(() -> store.load(s.id())).isInstanceOf(SessionStoreUnavailableException.class)
                .hasMessageContaining("sessions unavailable").hasMessageContaining("UNKNOWN");
        long loadFailedAfter = System.nanoTime() - start;
        SessionHealth health = store.health();
        // From now on every call fails at once, unsent: no request thread waits out the timeout.
        long slowest = 0;
        for (int i = 0; i < 100; i++) {
            long t = System.nanoTime();
            assertThatThrownBy(() -> store.load(s.id())).isInstanceOf(SessionStoreUnavailableException.class)
                    .hasMessageContaining("not sent").extracting(e -> ((SessionStoreUnavailableException) e).outcome())
                    .isEqualTo(Outcome.NOT_EXECUTED);
            slowest = Math.max(slowest, System.nanoTime() - t);
        }
        start = System.nanoTime();
        Throwable revokeFailure = catchThrowable(() -> store.revoke(s));
        long revokeFailedAfter = System.nanoTime() - start;
        long healedAt = System.nanoTime();
        deployment.healAll();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1)).until(() -> store.health().isReady());
        long readyAfter = System.nanoTime() - healedAt;

        System.out.printf("[figures] %s server paused: load failed closed after %.1f ms (timeout 300 ms); then 100"
                + " loads failed at once, slowest %.3f ms; revoke %.3f ms; READY %.1f ms after the server resumed;"
                + " health while paused %s%n", getClass().getSimpleName(), loadFailedAfter / 1e6, slowest / 1e6,
                revokeFailedAfter / 1e6, readyAfter / 1e6, health.status());
        assertThat(Duration.ofNanos(loadFailedAfter)).isBetween(Duration.ofMillis(250), Duration.ofMillis(1000));
        assertThat(health.status()).isEqualTo(SessionHealth.Status.NOT_READY);
        assertThat(health.cause()).isEqualTo("RedisTimeoutException");
        assertThat(revokeFailure).isInstanceOf(SessionStoreUnavailableException.class);
        assertThat(((SessionStoreUnavailableException) revokeFailure).outcome()).as("the logout was never sent")
                .isEqualTo(Outcome.NOT_EXECUTED);
        assertThat(redkit.meters().get("redkit.session.unavailable").counter().count()).isEqualTo(102);

        // Back within a second of the server answering, and the logout that was not sent did not happen.
        assertThat(readyAfter).isLessThan(Duration.ofSeconds(1).toNanos());
        assertThat(store.load(s.id())).isPresent();
        assertThat(redkit.meters().get("redkit.session.ready").gauge().value()).isEqualTo(1);
        assertThat(store.load(store.create(user, ADA).id())).isPresent();
        assertThat(deny.health().isReady()).isTrue();
    }

    @Test
    void pausedRedisFailsCreateAndDenyListClosed() {
        Redkit redkit = client();
        SessionStore<Account> store = store(redkit);
        TokenDenyList deny = TokenDenyList.create(redkit, DenyListConfig.defaults());
        String user = user();
        deployment.pauseServerOf(indexKey(user));

        long start = System.nanoTime();
        assertThatThrownBy(() -> store.create(user, ADA)).isInstanceOf(SessionStoreUnavailableException.class);
        long createFailedAfter = System.nanoTime() - start;
        String jti = "jti-" + UUID.randomUUID();
        deployment.healAll();
        deployment.pauseServerOf(KeySchema.of(DenyListConfig.DEFAULT_NAMESPACE).key(jti));
        assertThatThrownBy(() -> deny.isDenied(jti)).as("never 'not denied' for an outage")
                .isInstanceOf(SessionStoreUnavailableException.class);
        deployment.healAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.health().isReady());

        System.out.printf("[figures] %s user's index paused: create failed closed after %.1f ms%n",
                getClass().getSimpleName(), createFailedAfter / 1e6);
        assertThat(Duration.ofNanos(createFailedAfter)).isLessThan(Duration.ofMillis(1500));
        // The index write may have run when the node woke (its outcome was UNKNOWN), but the session it lists was
        // deleted again, and an id the create never returned cannot be used: nothing of this user is live.
        assertThat(store.revokeAll(user)).as("live sessions of the user").isZero();
    }

    @Test
    void deniedTokenIsKeptUntilItsExpiryAndNoLonger() {
        Redkit redkit = client();
        TokenDenyList deny = TokenDenyList.create(redkit, DenyListConfig.defaults());
        String jti = "jti-" + UUID.randomUUID();
        Instant exp = Instant.now().plus(Duration.ofMinutes(10));

        assertThat(deny.deny(jti, exp)).isTrue();

        assertThat(deny.isDenied(jti)).isTrue();
        assertThat(deny.isDenied("jti-" + UUID.randomUUID())).isFalse();
        Duration ttl = redkit.commands().ttl(KeySchema.of("deny").key(jti)).orElseThrow();
        assertThat(ttl).as("until the expiry plus the validators' 60 s leeway")
                .isBetween(Duration.ofMinutes(10).plusSeconds(55), Duration.ofMinutes(11));

        TokenDenyList strict = TokenDenyList.create(redkit, DenyListConfig.builder().leeway(Duration.ZERO).build());
        String shortLived = "jti-" + UUID.randomUUID();
        assertThat(strict.deny(shortLived, Instant.now().plusMillis(300))).isTrue();
        assertThat(strict.isDenied(shortLived)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> !strict.isDenied(shortLived));
    }

    @Test
    void denyListRefusesExpiredAndFarFutureTokens() {
        Redkit redkit = client();
        TokenDenyList deny = TokenDenyList.create(redkit, DenyListConfig.defaults());
        String expired = "jti-" + UUID.randomUUID();
        String far = "jti-" + UUID.randomUUID();

        assertThat(deny.deny(expired, Instant.now().minus(Duration.ofMinutes(2)))).isFalse();
        assertThat(deny.isDenied(expired)).isFalse();
        assertThatThrownBy(() -> deny.deny(far, Instant.now().plus(Duration.ofDays(31))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxTokenLifetime");
        assertThat(deny.isDenied(far)).isFalse();
        assertThatThrownBy(() -> deny.isDenied("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> deny.isDenied("x".repeat(257))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void metersAreTaggedWithClientAndStore() {
        Redkit redkit = Redkit.create(RedkitConfig.builder().url(deployment.url()).name("orders").build());
        clients.add(redkit);
        SessionStore<Account> store = store(redkit, b -> b.namespace("web"));
        Session<Account> s = store.create(user(), ADA);
        store.load(s.id());
        store.load(SessionId.generate());

        assertThat(redkit.meters().get("redkit.session.loads").tags("client", "orders", "store", "web", "result",
                "hit").counter().count()).isEqualTo(1);
        assertThat(redkit.meters().get("redkit.session.loads").tags("result", "miss").counter().count())
                .isEqualTo(1);
        assertThat(redkit.meters().get("redkit.session.creations").tag("store", "web").counter().count())
                .isEqualTo(1);
        assertThat(redkit.meters().get("redkit.session.load.latency").timer().count()).isEqualTo(2);
        assertThat(redkit.commands().exists("web:{" + s.id().digest() + "}")).isEqualTo(1);
    }
}
