package io.redkit.lab.bench.limit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.lab.bench.Ceiling;
import io.redkit.lab.bench.Contender;
import io.redkit.limit.LimitScripts;

/**
 * {@code bench limit}: rate-limit decisions, one per call, on one hot key (1,000 per second: most calls refused)
 * and spread over 10,000 keys (10 per second each), through redkit's GCRA and fixed-window limiters, Bucket4j's
 * Lettuce proxy manager, Redisson's {@code RRateLimiter}, and raw Lettuce running redkit's GCRA script by
 * EVALSHA. On the hot key every contender's allowed decisions are also counted against what its limit permits
 * (the {@code over_admission} table). The ceiling is {@code redis-benchmark} running the GCRA script.
 */
public final class LimitBenchmark implements Benchmark {

    private final List<LimitContender> counted = new ArrayList<>();

    @Override
    public String name() {
        return "limit";
    }

    @Override
    public String description() {
        return "rate-limit decisions on one hot key (" + Scenario.HOT_KEY.perSecond() + "/s: most refused) and over "
                + String.format(Locale.ROOT, "%,d", Scenario.SPREAD.subjects()) + " keys (" + Scenario.SPREAD.perSecond()
                + "/s each): redkit GCRA (also observed: a registry with a do-nothing handler) and fixed window vs Bucket4j (Lettuce, compare-and-swap), Redisson"
                + " RRateLimiter and raw Lettuce EVALSHA of redkit's GCRA script; over-admission counted on the hot key";
    }

    @Override
    public List<String> ops() {
        return List.of(Scenario.HOT_KEY.op(), Scenario.SPREAD.op());
    }

    private static Scenario scenario(String op) {
        return op.equals(Scenario.HOT_KEY.op()) ? Scenario.HOT_KEY : Scenario.SPREAD;
    }

    @Override
    public List<Contender> contenders(String op) {
        Scenario s = scenario(op);
        List<LimitContender> made = List.of(new RedkitLimitContender(s, true), new RedkitLimitContender(s, false),
                new RedkitLimitContender(s, true, true), new Bucket4jContender(s), new RedissonLimitContender(s),
                new LettuceGcraContender(s));
        if (s.counted()) {
            counted.addAll(made);
        }
        return List.copyOf(made);
    }

    /** Loads the GCRA script, so that raw Lettuce's and the ceiling's EVALSHA find it. */
    @Override
    public void prepare(String op, BenchEnv env) {
        try (LettuceLink<String> link = LettuceLink.open(env, StringCodec.UTF8)) {
            link.connection().sync().scriptLoad(LimitScripts.GCRA.source());
        }
    }

    /** The GCRA script on the scenario's keys, one permit per call, as raw Lettuce sends it. */
    @Override
    public Optional<Ceiling> ceiling(String op, BenchEnv env) {
        Scenario s = scenario(op);
        List<String> args = new ArrayList<>();
        if (s.subjects() > 1) {
            args.addAll(List.of("-r", Integer.toString(s.subjects())));
        }
        args.addAll(List.of("EVALSHA", LimitScripts.GCRA.sha1(), "1",
                "bench:ceiling:{" + (s.subjects() > 1 ? "__rand_int__" : "hot") + "}:gcra.1000"));
        args.addAll(List.of(LettuceGcraContender.args(s.perSecond())));
        return Optional.of(Ceiling.of(args));
    }

    @Override
    public List<Aim> aims() {
        List<Aim> aims = new ArrayList<>(List.of(new Aim("redkit-gcra", "redisson", 64, 2.0),
                new Aim("redkit-gcra", "lettuce-evalsha", 64, 0.9)));
        aims.addAll(Aim.againstRaw("redkit-gcra", "lettuce-evalsha"));
        return aims;
    }

    /** The hot key's allowed decisions against what each contender's limit permits, per caller count. */
    @Override
    public List<Extra> extras(BenchEnv env) {
        return List.of(OverAdmission.of(Scenario.HOT_KEY, counted));
    }
}
