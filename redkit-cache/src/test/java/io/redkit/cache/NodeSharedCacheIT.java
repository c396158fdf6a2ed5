package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/**
 * A Node service (ioredis, {@code JSON.parse}/{@code JSON.stringify}, {@code src/test/node/shared-cache.js}) and
 * redkit sharing one cache in {@code format(PLAIN_JSON)}: each reads the other's entries as hits, field for field
 * (money as integer minor units, time as RFC 3339), and the "not found" marker means the same to both. Skipped,
 * saying how to install it, when node or the script's packages are missing: nothing is downloaded at test time.
 */
class NodeSharedCacheIT extends CacheFixture {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    private static final Path NODE_DIR = Path.of("src", "test", "node");
    private static final String INSTALL = "npm ci --prefix redkit-cache/src/test/node";

    /** The product as the Java service has it. */
    record Product(long id, String name, long priceMinor, Instant updatedAt) {
    }

    /** What the Node script found under a key ({@code shared-cache.js read}). */
    record NodeRead(boolean found, boolean parsed, boolean notFound, long pttl, Long id, String name, Long priceMinor,
            boolean priceIsInteger, String updatedAt, boolean updatedAtIsRfc3339, Long updatedAtMillis,
            String error) {
    }

    NodeSharedCacheIT() {
        super(redis);
    }

    @BeforeAll
    static void nodeAndItsPackagesAreInstalled() throws Exception {
        Assumptions.assumeTrue(nodeRuns(), "node (Node.js 20+) is not on the PATH: install it, then run " + INSTALL);
        Assumptions.assumeTrue(Files.isDirectory(NODE_DIR.resolve("node_modules/ioredis")),
                "the Node peer's packages are not installed: run " + INSTALL + " (.ci/run does)");
    }

    private static boolean nodeRuns() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private CacheAside<Long, Product> products(Redkit redkit, CacheLoader<Long, Product> loader) {
        CacheAside<Long, Product> cache = RedisCache.<Long, Product>builder(redkit).name(name)
                .valueType(Product.class).format(CacheFormat.PLAIN_JSON).ttl(Duration.ofMinutes(5))
                .loader(loader).build();
        caches.add(cache);
        return cache;
    }

    private String key(long id) {
        return KeySchema.of("cache." + name).key(String.valueOf(id));
    }

    /** Runs {@code shared-cache.js} against this test's redis-server; its stdout. */
    private String node(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "shared-cache.js", redis.get().host(),
                String.valueOf(redis.get().port())));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(NODE_DIR.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("node finished").isTrue();
        assertThat(p.exitValue()).as("node: %s", out).isZero();
        return out.strip();
    }

    private NodeRead nodeRead(long id) throws Exception {
        return JacksonCodec.of(NodeRead.class).decode(node("read", key(id)).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void nodeReadsRedkitsEntriesFieldForFieldAndItsNotFoundMarker() throws Exception {
        Product kettle = new Product(42, "Kettle \u00e9", 1999, Instant.parse("2026-12-06T14:07:01.123Z"));
        CacheAside<Long, Product> cache = products(redkit(), id -> id == 42 ? Optional.of(kettle) : Optional.empty());
        assertThat(cache.get(42L)).contains(kettle);
        assertThat(cache.get(404L)).isEmpty();

        NodeRead read = nodeRead(42);
        assertThat(read.parsed()).as("JSON.parse of redkit's entry: %s", read.error()).isTrue();
        assertThat(read.notFound()).isFalse();
        assertThat(read.id()).isEqualTo(42);
        assertThat(read.name()).isEqualTo("Kettle \u00e9");
        assertThat(read.priceMinor()).isEqualTo(1999);
        assertThat(read.priceIsInteger()).isTrue();
        assertThat(read.updatedAtIsRfc3339()).as(read.updatedAt()).isTrue();
        assertThat(read.updatedAtMillis()).isEqualTo(kettle.updatedAt().toEpochMilli());
        assertThat(read.pttl()).isBetween(1L, Duration.ofMinutes(5).toMillis());

        NodeRead absent = nodeRead(404);
        assertThat(absent.parsed()).isTrue();
        assertThat(absent.notFound()).isTrue();
        assertThat(absent.pttl()).isBetween(1L, CacheConfig.DEFAULT_NEGATIVE_TTL.toMillis());
    }

    @Test
    void redkitReadsNodesEntriesAsHitsAndItsNullAsNotFound() throws Exception {
        node("write", key(7), "7", "Teapot", "2450", "2026-12-06T09:30:00.250+01:00", "60000");
        node("absent", key(8), "30000");
        Redkit redkit = redkit();
        CacheAside<Long, Product> cache = products(redkit, id -> {
            throw new AssertionError("loaded " + id + ": a Node entry was not a hit");
        });

        assertThat(cache.get(7L)).contains(new Product(7, "Teapot", 2450, Instant.parse("2026-12-06T08:30:00.250Z")));
        assertThat(cache.get(8L)).isEmpty();
        assertThat(cache.stats().hits()).isEqualTo(2);
        assertThat(cache.stats().loads()).isZero();
        // Redkit did not overwrite them: Node's next read is still its own entry.
        NodeRead again = nodeRead(7);
        assertThat(again.parsed()).isTrue();
        assertThat(again.updatedAt()).isEqualTo("2026-12-06T08:30:00.250Z");
        assertThat(redkit.commands().getString(key(7)).orElseThrow()).contains("\"source\":\"node\"");
    }
}
