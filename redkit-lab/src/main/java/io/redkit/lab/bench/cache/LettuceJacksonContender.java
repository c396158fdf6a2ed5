package io.redkit.lab.bench.cache;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;

/**
 * The floor a hand-written cache reaches: raw Lettuce sync GET on one shared connection and
 * {@code ObjectMapper.readValue}; on a miss the naive cache-aside (load, then SET with a TTL), no coordination.
 */
final class LettuceJacksonContender extends CacheContender implements BatchRead.Batched {

    private static final SetArgs TTL = SetArgs.Builder.ex(3600);

    private RedisClient client;
    private StatefulRedisConnection<String, byte[]> connection;
    private RedisCommands<String, byte[]> sync;

    LettuceJacksonContender() {
        super("lettuce+jackson");
    }

    @Override
    public void setup(BenchEnv env) {
        client = RedisClient.create(RedisURI.create(env.url()));
        connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
        sync = connection.sync();
    }

    @Override
    Product read(Integer id) throws Exception {
        byte[] raw = sync.get(Products.lettuceKey(id));
        return raw == null ? null : Products.MAPPER.readValue(raw, Product.class);
    }

    /** One MGET of the ids' keys, each value found decoded by Jackson. */
    @Override
    public Map<Integer, Product> readAll(List<Integer> ids) throws Exception {
        String[] keys = new String[ids.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = Products.lettuceKey(ids.get(i));
        }
        List<KeyValue<String, byte[]>> values = sync.mget(keys);
        Map<Integer, Product> found = new HashMap<>();
        for (int i = 0; i < keys.length; i++) {
            KeyValue<String, byte[]> kv = values.get(i);
            if (kv.hasValue()) {
                found.put(ids.get(i), Products.MAPPER.readValue(kv.getValue(), Product.class));
            }
        }
        return found;
    }

    @Override
    Product readThrough(Integer id) throws Exception {
        Product p = read(id);
        if (p == null) {
            p = source.load(id);
            sync.set(Products.lettuceKey(id), Products.json(p), TTL);
        }
        return p;
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown();
        }
    }
}
