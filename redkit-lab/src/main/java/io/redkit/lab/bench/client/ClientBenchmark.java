package io.redkit.lab.bench.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.lab.bench.Ceiling;
import io.redkit.lab.bench.Contender;

/**
 * {@code bench client}: what redkit's request path costs over the client it wraps. GET of a present key and SET
 * of a 100-byte value over 1000 keys, through {@code Redkit.commands()}, raw Lettuce sync, raw Lettuce async
 * (issue, then wait, per caller) and Redisson's RBucket, against {@code redis-benchmark -t get|set} at the same
 * concurrency. GET and SET are two ops of one benchmark, each its own section and its own ratios.
 */
public final class ClientBenchmark implements Benchmark {

    @Override
    public String name() {
        return "client";
    }

    @Override
    public String description() {
        return "GET and SET through redkit's request path vs raw Lettuce (sync, async) and Redisson RBucket; "
                + KeySpace.KEYS + " keys, " + KeySpace.VALUE_SIZE + "-byte values";
    }

    @Override
    public List<String> ops() {
        return List.of("get", "set");
    }

    @Override
    public List<Contender> contenders(String op) {
        ClientOp o = ClientOp.of(op);
        return List.of(new RedkitContender(o), new LettuceContender(o, false), new LettuceContender(o, true),
                new RedissonContender(o));
    }

    /** Writes every key of the key space, so that each GET is a hit of the same size. */
    @Override
    public void prepare(String op, BenchEnv env) throws Exception {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, byte[]> c =
                client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
            for (int i = 0; i < KeySpace.KEYS; i++) {
                c.async().set(KeySpace.key(i), KeySpace.value());
            }
            c.sync().ping();
        } finally {
            client.shutdown();
        }
    }

    @Override
    public Optional<Ceiling> ceiling(String op, BenchEnv env) {
        return Optional.of(Ceiling.of(List.of("-t", op.toLowerCase(Locale.ROOT), "-r", String.valueOf(KeySpace.KEYS),
                "-d", String.valueOf(KeySpace.VALUE_SIZE))));
    }

    @Override
    public List<Aim> aims() {
        List<Aim> aims = new ArrayList<>(List.of(new Aim("redkit", "lettuce-sync", 64, 0.9),
                new Aim("redkit", "lettuce-async", 64, 0.9)));
        aims.addAll(Aim.againstRaw("redkit", "lettuce-sync"));
        return aims;
    }
}
