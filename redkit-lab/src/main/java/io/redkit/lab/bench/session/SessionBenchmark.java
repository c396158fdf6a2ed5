package io.redkit.lab.bench.session;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.lab.bench.Ceiling;
import io.redkit.lab.bench.Contender;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionScripts;
import io.redkit.session.SessionStore;

/**
 * {@code bench session}: what a request's session costs, load and touch of a random one of 10,000 live sessions,
 * through redkit's {@code SessionStore} (one EVALSHA) and Spring Session's {@code RedisSessionRepository} as Spring
 * Boot configures it (findById + save, as {@code SessionRepositoryFilter} does: four round trips), and raw Lettuce
 * sending redkit's EVALSHA itself ({@link LettuceTouchContender}). The ceiling is
 * {@code redis-benchmark} running redkit's touch script by EVALSHA on copies of a stored session.
 */
public final class SessionBenchmark implements Benchmark {

    /** The ceiling's keys: copies of one stored session under {@code bench:sess:ceiling:{000000000042}}. */
    static final String CEILING_PREFIX = "bench:sess:ceiling:";

    @Override
    public String name() {
        return "session";
    }

    @Override
    public String description() {
        return "session load + touch of a random one of " + String.format("%,d", Visitor.SESSIONS)
                + " live sessions (~150-byte data): redkit SessionStore.load (one EVALSHA: GET + PEXPIRE capped by"
                + " the absolute lifetime, JSON decode) vs Spring Session " + springSessionVersion()
                + " RedisSessionRepository as Spring Boot configures it (findById + save per request:"
                + " HGETALL, EXISTS, HMSET, PEXPIREAT; JDK-serialized attributes) vs raw Lettuce EVALSHA of redkit's"
                + " touch script + Jackson decode of the payload";
    }

    @Override
    public List<Contender> contenders(String op) {
        return List.of(new RedkitSessionContender(), new SpringSessionContender(), new LettuceTouchContender());
    }

    /**
     * Stores one session through redkit, loads it (so the touch script is cached on the server) and copies its
     * bytes under the ceiling's keys: the script reads only their header.
     */
    @Override
    public void prepare(String op, BenchEnv env) {
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-prepare").build())) {
            SessionStore<Visitor> store = SessionStore.builder(redkit, Visitor.class)
                    .config(SessionConfig.builder().namespace("bench-sess-ceiling").build()).build();
            var session = store.create(Visitor.user(0), Visitor.of(0));
            store.load(session.id()).orElseThrow();
            byte[] stored = redkit.commands().get(KeySchema.of("bench-sess-ceiling").key(session.id().digest()))
                    .orElseThrow();
            // In batches: ten thousand writes in flight at once outlast the request profile's 300 ms on a busy box.
            for (int from = 0; from < Visitor.SESSIONS; from += 500) {
                List<CompletableFuture<Void>> writes = new ArrayList<>(500);
                for (int i = from; i < Math.min(Visitor.SESSIONS, from + 500); i++) {
                    writes.add(redkit.background().setAsync(ceilingKey(i), stored,
                            SessionConfig.DEFAULT_IDLE_TIMEOUT));
                }
                CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
            }
            store.revoke(session);
        }
    }

    @Override
    public Optional<Ceiling> ceiling(String op, BenchEnv env) {
        return Optional.of(Ceiling.of(List.of("-r", String.valueOf(Visitor.SESSIONS), "EVALSHA",
                SessionScripts.TOUCH.sha1(), "1", CEILING_PREFIX + "{__rand_int__}",
                String.valueOf(System.currentTimeMillis()),
                String.valueOf(SessionConfig.DEFAULT_IDLE_TIMEOUT.toMillis()))));
    }

    @Override
    public List<Aim> aims() {
        List<Aim> aims = new ArrayList<>(List.of(new Aim("redkit", "spring-session", 64, 2.0)));
        aims.addAll(Aim.againstRaw("redkit", LettuceTouchContender.NAME));
        return aims;
    }

    static String ceilingKey(int i) {
        return CEILING_PREFIX + "{" + String.format("%012d", i) + "}";
    }

    /** The Spring Session version in this jar (its jars carry no pom.properties; the lab's build writes it). */
    static String springSessionVersion() {
        try (InputStream in = SessionBenchmark.class.getResourceAsStream("peers.properties")) {
            if (in == null) {
                return "(version unknown)";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("spring-session-data-redis", "(version unknown)");
        } catch (IOException e) {
            return "(version unknown)";
        }
    }
}
