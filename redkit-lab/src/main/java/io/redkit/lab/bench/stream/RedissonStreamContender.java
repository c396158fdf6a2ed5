package io.redkit.lab.bench.stream;

import java.time.Duration;
import java.util.Map;

import org.redisson.Redisson;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.codec.StringCodec;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Peers;

/**
 * Redisson's {@code RStream} as its documentation uses it: {@code addAsync}; a loop of
 * {@code readGroup(neverDelivered().count(100).timeout(100 ms))}, each message handled, then one {@code ack} of
 * the batch. Redisson's defaults otherwise.
 */
final class RedissonStreamContender extends StreamContender {

    private final String key = key();
    private RedissonClient redisson;
    private RStream<String, String> stream;

    RedissonStreamContender() {
        super("redisson");
    }

    @Override
    void start(BenchEnv env) {
        createGroup(env, key);
        redisson = Redisson.create(Peers.redissonConfig(env));
        stream = redisson.getStream(key, StringCodec.INSTANCE);
        StreamReadGroupArgs args = StreamReadGroupArgs.neverDelivered().count(100).timeout(Duration.ofMillis(100));
        startLoop(() -> {
            Map<StreamMessageId, Map<String, String>> batch = stream.readGroup(GROUP, "redisson", args);
            if (batch == null || batch.isEmpty()) {
                return;
            }
            for (Map<String, String> fields : batch.values()) {
                handled(BenchEvent.parse(fields.get("d")));
            }
            stream.ack(GROUP, batch.keySet().toArray(new StreamMessageId[0]));
        });
    }

    @Override
    void produce(BenchEvent event) {
        track(stream.addAsync(StreamAddArgs.entries(event.fields()).trimNonStrict().maxLen(MAX_LENGTH).noLimit()));
    }

    @Override
    void stop() {
        stopLoop();
        if (redisson != null) {
            redisson.shutdown();
        }
    }
}
