package io.redkit.lab.bench.stream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.stream.StreamScripts;

/**
 * The loop a team writes by hand on Lettuce, sending what redkit's {@code StreamQueue} sends: on one connection,
 * async EVALSHA of redkit's publish script (cap, mode {@code ask}, no marker, then the entry's {@code v}/{@code k}/
 * {@code d} fields: the same script, the same JSON), and when the stream is full its trim script and the publish
 * again with {@code reject}; on another, XREADGROUP COUNT 100 BLOCK 100, each message handled, then one XACK for
 * the batch. No retries, no claiming, no dead letters.
 */
final class LettuceRawContender extends StreamContender {

    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
    private static final byte[] CAP = Integer.toString(MAX_LENGTH).getBytes(StandardCharsets.UTF_8);
    private static final byte[] ASK = "ask".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REJECT = "reject".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NO_MARKER = {'0'};

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
        producer.sync().scriptLoad(StreamScripts.PUBLISH.source());
        producer.sync().scriptLoad(StreamScripts.TRIM.source());
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
        Map<String, byte[]> fields = event.byteFields();
        byte[][] ask = new byte[3 + 2 * fields.size()][];
        ask[0] = CAP;
        ask[1] = ASK;
        ask[2] = NO_MARKER;
        int i = 3;
        for (Map.Entry<String, byte[]> f : fields.entrySet()) {
            ask[i++] = f.getKey().getBytes(StandardCharsets.UTF_8);
            ask[i++] = f.getValue();
        }
        RedisAsyncCommands<String, byte[]> async = producer.async();
        String[] keys = {key};
        track(async.<List<Object>>evalsha(StreamScripts.PUBLISH.sha1(), ScriptOutputType.MULTI, keys, ask)
                .thenCompose(reply -> {
                    if ((Long) reply.get(0) != 0) {
                        return CompletableFuture.completedFuture(reply);
                    }
                    byte[][] reject = ask.clone();
                    reject[1] = REJECT;
                    return async.<List<Object>>evalsha(StreamScripts.TRIM.sha1(), ScriptOutputType.MULTI, keys,
                            new byte[0]).thenCompose(trimmed -> async.<List<Object>>evalsha(
                                    StreamScripts.PUBLISH.sha1(), ScriptOutputType.MULTI, keys, reject));
                }));
    }

    @Override
    void stop() {
        stopLoop();
        if (client != null) {
            client.shutdown();
        }
    }
}
