package io.redkit.lab.bench.stream;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;

/**
 * The loop a team writes by hand on Lettuce: async XADD on one connection; on another, XREADGROUP COUNT 100
 * BLOCK 100, each message handled, then one XACK for the batch. No retries, no claiming, no dead letters.
 */
final class LettuceRawContender extends StreamContender {

    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private final String key = key();
    private RedisClient client;
    private StatefulRedisConnection<String, byte[]> producer;
    private StatefulRedisConnection<String, byte[]> consumer;

    LettuceRawContender() {
        super("lettuce-raw");
    }

    @Override
    @SuppressWarnings("unchecked") // Lettuce's xreadgroup takes its stream offsets as generic varargs
    void start(BenchEnv env) {
        createGroup(env, key);
        client = RedisClient.create(RedisURI.create(env.url()));
        producer = client.connect(CODEC);
        consumer = client.connect(CODEC);
        Consumer<String> me = Consumer.from(GROUP, "raw");
        XReadArgs args = XReadArgs.Builder.count(100).block(100);
        XReadArgs.StreamOffset<String> offset = XReadArgs.StreamOffset.lastConsumed(key);
        startLoop(() -> {
            List<StreamMessage<String, byte[]>> batch = consumer.sync().xreadgroup(me, args, offset);
            if (batch.isEmpty()) {
                return;
            }
            List<String> ids = new ArrayList<>(batch.size());
            for (StreamMessage<String, byte[]> m : batch) {
                handled(BenchEvent.parse(m.getBody().get("d")));
                ids.add(m.getId());
            }
            consumer.sync().xack(key, GROUP, ids.toArray(new String[0]));
        });
    }

    @Override
    void produce(BenchEvent event) {
        track(producer.async().xadd(key, new XAddArgs().maxlen(MAX_LENGTH).approximateTrimming(),
                event.byteFields()));
    }

    @Override
    void stop() {
        stopLoop();
        if (client != null) {
            client.shutdown();
        }
    }
}
