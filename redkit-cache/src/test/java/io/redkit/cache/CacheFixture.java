package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;

import io.micrometer.core.instrument.Counter;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.CommandLog;
import io.redkit.testing.Deployment;

/**
 * What the cache suites share: a deployment, clients and caches closed after each test, an in-memory source that
 * counts its loads, and helpers to run calls concurrently.
 */
abstract class CacheFixture {

    final Deployment deployment;
    private final List<Redkit> clients = new ArrayList<>();
    final List<CacheAside<?, ?>> caches = new ArrayList<>();
    final Source source = new Source();
    final String name = "t" + UUID.randomUUID().toString().substring(0, 8);
    // Every client of this test sends its name, so a CommandLog counts what this test sent and nothing else.
    final String clientName = CommandLog.uniqueClientName("cache-test");

    CacheFixture(Deployment deployment) {
        this.deployment = deployment;
    }

    Redkit redkit() {
        return redkit(b -> { });
    }

    Redkit redkit(java.util.function.Consumer<RedkitConfig.Builder> settings) {
        RedkitConfig.Builder builder = RedkitConfig.builder().url(deployment.url()).clientName(clientName);
        settings.accept(builder);
        Redkit redkit = Redkit.create(builder.build());
        clients.add(redkit);
        return redkit;
    }

    CacheAside<String, String> cache(Redkit redkit, UnaryOperator<RedisCache.Builder<String, String>> settings) {
        RedisCache.Builder<String, String> builder = RedisCache.<String, String>builder(redkit).name(name)
                .valueType(String.class).loader(source::load).batchLoader(source::loadAll);
        CacheAside<String, String> cache = settings.apply(builder).build();
        caches.add(cache);
        return cache;
    }

    CacheAside<String, String> cache(Redkit redkit) {
        return cache(redkit, b -> b);
    }

    String entryKey(String id) {
        return io.redkit.KeySchema.of("cache." + name).key(id);
    }

    @AfterEach
    void closeAndHeal() {
        deployment.healAll();
        caches.forEach(CacheAside::close);
        clients.forEach(Redkit::close);
    }

    /** Counts a key by id. */
    interface KeyView {
        long count(String id);
    }

    static String randomText(int length) {
        java.util.Random random = new java.util.Random(7);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('!' + random.nextInt(90)));
        }
        return sb.toString();
    }

    static double commandFailures(Redkit redkit) {
        return redkit.meters().find("redkit.command.failures").counters().stream().mapToDouble(Counter::count).sum();
    }

    /** A call that a test runs on many threads at once. */
    interface Call<T> {
        T run(int caller) throws Exception;
    }

    static <T> List<T> concurrently(int callers, java.util.concurrent.Callable<T> call) throws Exception {
        return concurrently(callers, i -> call.call());
    }

    static <T> List<T> concurrently(int callers, Call<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                int caller = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.run(caller);
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
