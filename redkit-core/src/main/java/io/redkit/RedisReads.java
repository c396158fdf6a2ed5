package io.redkit;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The read commands a cache needs, from the master or, when asked through {@link Redkit#reads(ReadFrom)}, from
 * replicas. The same error model as {@link RedisOps}: a miss is {@code Optional.empty()}.
 */
public interface RedisReads {

    /** GET: the value, or empty when there is none. */
    Optional<byte[]> get(String key);

    /** GET without blocking. */
    CompletableFuture<Optional<byte[]>> getAsync(String key);

    /**
     * PTTL without blocking: the remaining time to live; empty when the key does not exist or never expires. Sent
     * right after {@link #getAsync} of the same key, both travel in one round trip (pipelined, not atomic).
     */
    CompletableFuture<Optional<Duration>> ttlAsync(String key);

    /** MGET in one round trip (one per slot on Cluster): a value or empty per key, in the order given. */
    List<Optional<byte[]>> mget(List<String> keys);
}
