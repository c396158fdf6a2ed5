package io.redkit.lab.bench.cache;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.cache.NearInvalidation.Pair;

/**
 * The floor under every tracking near cache: raw Lettuce, no near-cache library. B is one RESP3 connection with
 * {@code CLIENT TRACKING ON} whose push listener removes the key from a plain map; B's copy is what its GET
 * answered. A is another connection whose {@code SET} is the write. Nothing here is gap-safe (a reply racing its
 * invalidation, a reconnect): it measures only what the server, the sockets and the two event loops cost on this
 * machine, so that a redkit row's latency can be read against it.
 */
final class LettuceTrackingPair implements Pair {

    static final String NAME = "lettuce-tracking-floor";

    private final Map<String, Product> copies = new ConcurrentHashMap<>();
    private RedisClient client;
    private StatefulRedisConnection<String, byte[]> connectionA;
    private StatefulRedisConnection<String, byte[]> connectionB;
    private RedisCommands<String, byte[]> a;
    private RedisCommands<String, byte[]> b;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String writer() {
        return "raw Lettuce SET (B: GET on a tracked RESP3 connection, a map, a push listener)";
    }

    @Override
    public void setup(BenchEnv env) {
        client = RedisClient.create(RedisURI.create(env.url()));
        RedisCodec<String, byte[]> codec = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
        connectionA = client.connect(codec);
        connectionB = client.connect(codec);
        connectionB.addListener((PushListener) message -> {
            if (!"invalidate".equals(message.getType())) {
                return;
            }
            Object keys = message.getContent(StringCodec.UTF8::decodeKey).get(1);
            if (keys == null) {
                copies.clear();
                return;
            }
            // Decoded to strings, the nested list of keys too (as TrackedConnection reads them).
            for (Object key : (List<?>) keys) {
                copies.remove(key);
            }
        });
        a = connectionA.sync();
        b = connectionB.sync();
        b.clientTracking(TrackingArgs.Builder.enabled());
    }

    private static String key(Integer id) {
        return "bench:invalidation:" + NAME + ":" + id;
    }

    /** A writes the old value; B reads it on its tracked connection and keeps what it read. */
    @Override
    public void hold(Integer id) {
        a.set(key(id), Products.json(Products.revision(id, OLD)), SetArgs.Builder.ex(3600));
        byte[] json = b.get(key(id));
        if (json == null) {
            throw new IllegalStateException(NAME + ": B read nothing for " + id);
        }
        copies.put(key(id), Products.revision(id, OLD));
    }

    @Override
    public void write(Integer id) {
        a.set(key(id), Products.json(Products.revision(id, NEW)), SetArgs.Builder.ex(3600));
    }

    @Override
    public boolean servesOld(Integer id) {
        Product p = copies.get(key(id));
        return p != null && p.stock() == OLD;
    }

    @Override
    public void close() {
        for (StatefulRedisConnection<String, byte[]> c : Arrays.asList(connectionA, connectionB)) {
            if (c != null) {
                c.close();
            }
        }
        if (client != null) {
            client.shutdown();
        }
    }
}
