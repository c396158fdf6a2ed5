package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.cache.CacheAside;
import io.redkit.cache.RedisCache;
import io.redkit.limit.Limit;
import io.redkit.limit.LimiterConfig;
import io.redkit.limit.Limits;
import io.redkit.limit.LimitsConfig;
import io.redkit.lock.Lease;
import io.redkit.lock.LockConfig;
import io.redkit.lock.Locks;
import io.redkit.session.DenyListConfig;
import io.redkit.session.SessionStore;
import io.redkit.session.TokenDenyList;
import io.redkit.stream.Once;
import io.redkit.stream.OnceConfig;
import io.redkit.stream.Signals;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamQueue;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/**
 * docs/metrics.md against a registry: every feature built on one real redis-server and used once, and each meter it
 * registers is a row of the table with that type and those tag keys ({@code [key]}: only sometimes). Meters that
 * appear only at a rare event (a lost lock, a dead letter) are not seen here; {@link MeterTableTest} finds those in
 * the sources.
 */
class MeterTableIT {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    private static final Pattern ROW = Pattern.compile("^\\|\\s*`(redkit\\.[^`]+)`\\s*\\|(.*)\\|\\s*$");
    private static final Pattern OPTIONAL_KEY = Pattern.compile("\\[`(\\w+)`]");
    private static final Pattern KEY = Pattern.compile("`(\\w+)`");

    /** A session's data. */
    record Note(String text) { }

    @Test
    void everyRegisteredMeterIsARowWithItsTypeAndTagKeys() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.url()).name("meters")
                .meterRegistry(registry).build())) {
            List<AutoCloseable> open = use(redkit);
            Map<String, Row> table = table();
            Set<String> seen = new TreeSet<>();
            for (Meter meter : registry.getMeters()) {
                Meter.Id id = meter.getId();
                if (!id.getName().startsWith("redkit.")) {
                    continue;
                }
                seen.add(id.getName());
                assertMatchesItsRow(id, table.get(id.getName()));
            }
            // Every module that registers meters at creation is seen; a feature left out would pass unnoticed.
            assertThat(seen).contains("redkit.command.latency", "redkit.pool.active", "redkit.lock.acquired",
                    "redkit.lock.hold", "redkit.cache.hits", "redkit.cache.breaker.state", "redkit.limit.decisions",
                    "redkit.limit.breaker.state", "redkit.session.creations", "redkit.session.deny.checks",
                    "redkit.stream.deliveries", "redkit.stream.workers", "redkit.stream.once",
                    "redkit.signal.published");
            Set<String> unseen = new TreeSet<>(table.keySet());
            unseen.removeAll(seen);
            System.out.printf("[figures] MeterTableIT: %d of the table's %d meters registered by one use of each"
                    + " feature; not seen (they wait for a rare event): %s%n", seen.size(), table.size(), unseen);
            for (AutoCloseable c : open) {
                c.close();
            }
        }
    }

    private static void assertMatchesItsRow(Meter.Id id, Row row) {
        assertThat(row).as(id.getName() + " is registered and is not a row of docs/metrics.md").isNotNull();
        assertThat(id.getType().name().toLowerCase(Locale.ROOT)).as(id.getName() + "'s type").isEqualTo(row.type());
        Set<String> keys = id.getTags().stream().map(Tag::getKey).collect(Collectors.toSet());
        assertThat(keys).as(id.getName() + "'s tag keys").containsAll(row.required());
        Set<String> allowed = new TreeSet<>(row.required());
        allowed.addAll(row.optional());
        assertThat(allowed).as(id.getName() + "'s tag keys in docs/metrics.md").containsAll(keys);
    }

    /**
     * Builds every feature and uses each once, so that what a first use registers is there too; returns what to
     * close after the check (a cache and a queue remove their meters when closed).
     */
    private static List<AutoCloseable> use(Redkit redkit) throws Exception {
        redkit.commands().get("meters:absent");
        try (Locks locks = Locks.create(redkit, LockConfig.builder().build());
                Locks named = Locks.create(redkit, LockConfig.builder().namespace("named").tagLockNames(true)
                        .build())) {
            try (Lease lease = locks.lock("report").tryAcquire().orElseThrow()) {
                lease.ensureHeld();
            }
            named.lock("report").tryAcquire().orElseThrow().close();
        }
        CacheAside<String, String> cache = RedisCache.<String, String>builder(redkit).name("products")
                .valueType(String.class).keyParts(List::of).ttl(Duration.ofMinutes(1))
                .loader(k -> Optional.of("v")).build();
        cache.get("1");
        cache.get("1");
        Limits limits = Limits.create(redkit, LimitsConfig.defaults());
        limits.limiter(LimiterConfig.builder("api").limits(Limit.gcra(10, Duration.ofSeconds(1))).failOpen().build())
                .tryAcquire("user");
        SessionStore<Note> sessions = SessionStore.builder(redkit, Note.class).build();
        sessions.load(sessions.create("user", new Note("hi")).id());
        TokenDenyList.create(redkit, DenyListConfig.defaults()).isDenied("token");
        StreamQueue<String> queue = StreamQueue.create(redkit, StreamConfig.builder("orders").build(), String.class);
        queue.publish("1", "order");
        Once.create(redkit, OnceConfig.builder("orders").build());
        Signals<String> signals = Signals.create(redkit, String.class);
        signals.publish("changed", "product");
        return List.of(cache, queue, signals);
    }

    private static Map<String, Row> table() throws IOException {
        Path doc = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent().resolve("docs/metrics.md");
        Map<String, Row> rows = new TreeMap<>();
        for (String line : Files.readAllLines(doc)) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                String[] cells = m.group(2).split("\\|", -1);
                // Values are listed in parentheses; the keys are what is left.
                String tags = cells[2].replaceAll("\\([^)]*\\)", "");
                Set<String> optional = new TreeSet<>();
                Matcher o = OPTIONAL_KEY.matcher(tags);
                while (o.find()) {
                    optional.add(o.group(1));
                }
                Set<String> required = new TreeSet<>();
                Matcher k = KEY.matcher(OPTIONAL_KEY.matcher(tags).replaceAll(""));
                while (k.find()) {
                    required.add(k.group(1));
                }
                rows.put(m.group(1), new Row(cells[0].trim(), required, optional));
            }
        }
        return rows;
    }

    private record Row(String type, Set<String> required, Set<String> optional) { }
}
