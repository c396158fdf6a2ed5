package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.redkit.Redkit;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.ObservationLog;
import io.redkit.testing.RedisServer;

/**
 * Reads are observed as {@code redkit.cache.get} / {@code .get.all} under the caller's observation, with the
 * outcome and the read's part in the single flight; the loader's call as {@code redkit.cache.load} beneath the read
 * that ran it (issue 23 point 4).
 */
class CacheObservationIT extends CacheFixture {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    private final TestObservationRegistry registry = TestObservationRegistry.create();
    private final ObservationLog log = ObservationLog.of(registry);

    CacheObservationIT() {
        super(redis);
    }

    @Test
    void readsAreObservedWithTheirOutcomeAndTheLoadBeneathTheReadThatRanIt() {
        Redkit redkit = redkit(b -> b.name("shop").observationRegistry(registry));
        CacheAside<String, String> cache = cache(redkit, b -> b.nearCache(100, Duration.ofMinutes(1))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        source.rows.put("a", "1");
        source.rows.put("b", "2");
        Observation request = Observation.start("http.request", registry);
        try (Observation.Scope ignored = request.openScope()) {
            assertThat(cache.get("a")).contains("1"); // miss: loaded here
            assertThat(cache.get("a")).contains("1"); // near hit
            assertThat(cache.get("none")).isEmpty(); // miss, absent from the source
            assertThat(cache.getAll(List.of("a", "b"))).containsEntry("b", "2");
        } finally {
            request.stop();
        }
        assertThat(gets()).extracting(c -> value(c, "outcome"), c -> value(c, "flight"))
                .containsExactly(tuple("miss", "leader"),
                        tuple("near_hit", "none"),
                        tuple("miss", "leader"));
        TestObservationRegistryAssert.assertThat(registry)
                .forAllObservationsWithNameEqualTo("redkit.cache.get", o -> o.hasParentObservationEqualTo(request)
                        .hasLowCardinalityKeyValue("client", "shop").hasLowCardinalityKeyValue("cache", name)
                        .hasContextualNameEqualTo("cache get " + name))
                .hasNumberOfObservationsWithNameEqualTo("redkit.cache.load", 3)
                .forAllObservationsWithNameEqualTo("redkit.cache.load", o -> o
                        .hasLowCardinalityKeyValue("cache", name))
                .hasObservationWithNameEqualTo("redkit.cache.get.all").that().hasParentObservationEqualTo(request)
                .hasLowCardinalityKeyValue("outcome", "miss").hasHighCardinalityKeyValue("keys", "2")
                .hasHighCardinalityKeyValue("misses", "1");
        List<Observation.Context> loads = named("redkit.cache.load");
        assertThat(loads).extracting(c -> c.getParentObservation().getContextView().getName(),
                c -> value(c, "batch"), c -> value(c, "outcome"))
                .containsExactly(tuple("redkit.cache.get", "false", "found"),
                        tuple("redkit.cache.get", "false", "absent"),
                        tuple("redkit.cache.get.all", "true", "found"));
    }

    @Test
    void aReadThatWaitsForAnothersLoadIsAWaiterAndLoadsNothing() throws Exception {
        Redkit redkit = redkit(b -> b.observationRegistry(registry));
        CountDownLatch release = new CountDownLatch(1);
        CacheAside<String, String> cache = cache(redkit, b -> b.loader(id -> {
            release.await(10, TimeUnit.SECONDS);
            return Optional.of("slow-" + id);
        }));
        CompletableFuture<Optional<String>> leader = CompletableFuture.supplyAsync(() -> cache.get("k"));
        await().atMost(Duration.ofSeconds(10)).until(() -> named("redkit.cache.load").size() == 1);
        Thread waiterThread = new Thread(() -> assertThat(cache.get("k")).contains("slow-k"));
        waiterThread.start();
        // The waiter is tagged before it joins the flight; WAITING after that is the join, the only wait left.
        await().atMost(Duration.ofSeconds(10)).until(() -> gets().stream().anyMatch(
                c -> "waiter".equals(value(c, "flight"))) && waiterThread.getState() == Thread.State.WAITING);
        release.countDown();
        assertThat(leader.get(10, TimeUnit.SECONDS)).contains("slow-k");
        waiterThread.join(10_000);

        assertThat(gets()).extracting(c -> value(c, "outcome") + "/" + value(c, "flight"))
                .containsExactlyInAnyOrder("miss/leader", "miss/waiter");
        assertThat(named("redkit.cache.load")).hasSize(1);
    }

    private List<Observation.Context> gets() {
        return log.started("redkit.cache.get");
    }

    private List<Observation.Context> named(String observation) {
        return log.started(observation);
    }

    private static String value(Observation.Context context, String key) {
        return ObservationLog.low(context, key);
    }
}
