package io.redkit.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;

/** What the invalidation-retry tests share: instances of one cache over one source, and its pending meters. */
abstract class InvalidationFixture {

    /** The URL the instances connect with. */
    abstract String url();

    final Source source = new Source();
    final String name = "t" + UUID.randomUUID().toString().substring(0, 8);
    final List<AutoCloseable> opened = new ArrayList<>();
    final Map<CacheAside<String, String>, Redkit> clients = new java.util.HashMap<>();

    CacheAside<String, String> instance(String id) {
        Redkit redkit = Redkit.create(RedkitConfig.builder().url(url()).name(id).build());
        CacheAside<String, String> cache = RedisCache.<String, String>builder(redkit).name(name)
                .valueType(String.class).ttl(Duration.ofMinutes(10)).loader(source::load).batchLoader(source::loadAll)
                .build();
        opened.add(0, redkit);
        opened.add(0, cache);
        clients.put(cache, redkit);
        return cache;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    double pending(CacheAside<String, String> cache) {
        return meters(cache, "redkit.cache.invalidations.pending").tag("cache", cache.name()).gauge().value();
    }

    double counter(CacheAside<String, String> cache, String meter) {
        return meters(cache, meter).tag("cache", cache.name()).counter().count();
    }

    double longestPendingMs(CacheAside<String, String> cache) {
        return meters(cache, "redkit.cache.invalidation.pending.time").tag("cache", cache.name()).timer()
                .max(java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    io.micrometer.core.instrument.search.RequiredSearch meters(CacheAside<String, String> cache,
            String meter) {
        Redkit redkit = clients.get(cache);
        return redkit.meters().get(meter).tag("client", redkit.config().name());
    }
}
