package io.redkit.lab.bench.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.lab.bench.Contender;

/**
 * {@code bench stream}: produce + consume + acknowledge, one consumer per library on a stream of its own, through
 * redkit's {@code StreamQueue}, Spring Data Redis's {@code StreamMessageListenerContainer} (acknowledging each
 * message in the listener, as its documentation does), a Redisson {@code RStream} read/ack loop and a raw Lettuce
 * loop (XREADGROUP COUNT 100, one XACK per batch). Callers are producers; see {@link StreamContender} for how a
 * call stays tied to a consumed message. Then each consumer alone draining entries added first ({@link Drain}:
 * the measurement), and end-to-end latency at a steady rate ({@link EndToEnd}). redis-benchmark
 * has no equivalent (a consumer group's read and acknowledgement), so there is no ceiling.
 */
public final class StreamBenchmark implements Benchmark {

    private static final List<Supplier<StreamContender>> CONTENDERS = List.of(RedkitStreamContender::new,
            SpringStreamContender::new, RedissonStreamContender::new, LettuceRawContender::new);

    @Override
    public String name() {
        return "stream";
    }

    @Override
    public String description() {
        return "produce + consume + acknowledge, one consumer per library, at most " + StreamContender.WINDOW
                + " messages in flight (a call produces one; ops/s are messages/s; a row's latency is the"
                + " producer's call): redkit StreamQueue (XREADGROUP COUNT 100, the batch's successes in one XACK after"
                + " their handlers) vs Spring's StreamMessageListenerContainer (XACK per message in the listener), a"
                + " Redisson RStream readGroup/ack loop and a raw Lettuce XREADGROUP COUNT 100 + batch XACK loop;"
                + " then each consumer draining 50,000 entries alone, and end-to-end latency at a steady rate";
    }

    @Override
    public List<Contender> contenders(String op) {
        return CONTENDERS.stream().map(s -> (Contender) s.get()).toList();
    }

    @Override
    public List<Aim> aims() {
        List<Aim> aims = new ArrayList<>(List.of(new Aim("redkit", "spring", 1, 5.0),
                new Aim("redkit", "lettuce-raw", 1, 0.8)));
        aims.addAll(Aim.againstRaw("redkit", "lettuce-raw"));
        return aims;
    }

    @Override
    public List<Extra> extras(BenchEnv env) throws Exception {
        return List.of(Drain.run(env, CONTENDERS), EndToEnd.run(env, CONTENDERS));
    }
}
