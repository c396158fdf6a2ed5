package io.redkit.testing;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Real Lettuce clients for the tests, shut down without Netty's default two-second quiet period. */
final class LettuceClients {

    private LettuceClients() {
    }

    static RedisClient standalone(String url, Duration timeout) {
        return RedisClient.create(RedisURI.builder(RedisURI.create(url)).withTimeout(timeout).build());
    }

    static RedisClient of(RedisURI uri) {
        return RedisClient.create(uri);
    }

    static RedisClusterClient cluster(List<String> seedUrls) {
        return RedisClusterClient.create(seedUrls.stream().map(RedisURI::create).toList());
    }

    static void shutdown(RedisClient client) {
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }

    static void shutdown(RedisClusterClient client) {
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
