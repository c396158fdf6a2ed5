package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.redkit.testing.CommandLog;
import io.redkit.testing.RedisServer;
import io.redkit.testing.RedisServerExtension;

/**
 * Every benchmark's raw contender (the one its allocation aim compares redkit with) sends exactly the commands
 * redkit sends for the same calls, scripts' inner commands included, as the server's MONITOR stream shows them:
 * a ratio against raw Lettuce means something only when both do the same work.
 */
class SameCommandsIT {

    private static final int CALLS = 200;
    private static final Set<String> STREAM_CONSUMER = Set.of("xreadgroup", "xack");
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.standalone();

    static List<String> benchmarks() {
        return Benchmarks.names();
    }

    @ParameterizedTest
    @MethodSource("benchmarks")
    void theRawContenderSendsTheSubjectsCommands(String name) throws Exception {
        Benchmark benchmark = Benchmarks.named(name).orElseThrow();
        String raw = benchmark.aims().stream().filter(Benchmark.Aim::allocation).map(Benchmark.Aim::against)
                .findFirst().orElse(null);
        assertThat(raw).as("%s declares aims against a raw Lettuce contender", name).isNotNull();
        for (String op : benchmark.ops()) {
            benchmark.prepare(op, env("bench-prepare"));
            List<Contender> contenders = benchmark.contenders(op);
            Contender subject = contenders.get(0);
            Contender plain = contenders.stream().filter(c -> c.name().equals(raw)).findFirst().orElseThrow(
                    () -> new AssertionError(name + " " + op + " has no contender " + raw));
            String subjectClient = CommandLog.uniqueClientName("subject");
            String rawClient = CommandLog.uniqueClientName("raw");
            try (subject; plain) {
                subject.setup(env(subjectClient));
                plain.setup(env(rawClient));
                calls(subject, 20);
                calls(plain, 20);
                try (CommandLog log = CommandLog.start(List.of(REDIS.server()))) {
                    calls(subject, CALLS);
                    calls(plain, CALLS);
                    Map<String, Long> bySubject = perCall(name, log.dataCommandsOf(subjectClient));
                    Map<String, Long> byRaw = perCall(name, log.dataCommandsOf(rawClient));
                    assertThat(bySubject).as("%s %s: what %s sends per call", name, op, subject.name())
                            .isNotEmpty();
                    assertThat(byRaw).as("%s %s: commands per call of %s vs %s", name, op, raw, subject.name())
                            .isEqualTo(bySubject);
                }
            }
        }
    }

    /**
     * Commands sent at least once per two calls, per call: what the call sends, not a background task's. A stream
     * call may also send the messages that prime a round (StreamContender), so there it is per message (XADD); and
     * its consumer reads and acknowledges in batches whose size depends on timing, so only the producer's commands
     * are compared (both consumers' loops are XREADGROUP COUNT 100 + one XACK per batch, by their code).
     */
    private static Map<String, Long> perCall(String bench, Map<String, Long> calls) {
        boolean stream = bench.equals("stream");
        long unit = stream ? calls.getOrDefault("xadd", 0L) : CALLS;
        return calls.entrySet().stream().filter(e -> e.getValue() * 2 >= unit)
                .filter(e -> !stream || !STREAM_CONSUMER.contains(e.getKey())).collect(
                Collectors.toMap(Map.Entry::getKey, e -> Math.round((double) e.getValue() / unit), (a, b) -> a,
                        TreeMap::new));
    }

    private static void calls(Contender contender, int n) throws Exception {
        Caller caller = new Caller(0, 42);
        for (int i = 0; i < n; i++) {
            contender.call(caller);
        }
    }

    private static BenchEnv env(String clientName) {
        RedisServer server = REDIS.server();
        // A request timeout this busy machine cannot reach: the test counts commands, a timed-out call proves nothing.
        String url = server.url() + (server.url().contains("?") ? "&" : "?") + "timeout=10s&clientName=" + clientName;
        return new BenchEnv(url, server.host(), server.port(), null, "test");
    }

}
