package io.redkit.lab.bench.limit;

import java.math.BigInteger;
import java.util.List;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.limit.LimitScripts;

/**
 * Raw Lettuce sync on one shared connection, running redkit's own GCRA script by EVALSHA with the arguments its
 * Lua header lays out: the floor of what any Lettuce-based limiter can cost with this script.
 */
final class LettuceGcraContender extends LimitContender {

    private LettuceLink<String> link;
    private RedisCommands<String, String> sync;

    LettuceGcraContender(Scenario scenario) {
        super(scenario, Rules.tokenBucket(scenario.perSecond(), scenario.perSecond()));
    }

    @Override
    public String name() {
        return "lettuce-evalsha";
    }

    /** ARGV for one permit of a limit of {@code perSecond}, burst the same: 1, then T = step/denom µs, then b. */
    static String[] args(long perSecond) {
        long gcd = BigInteger.valueOf(1_000_000).gcd(BigInteger.valueOf(perSecond)).longValue();
        return new String[] {"1", Long.toString(1_000_000 / gcd), Long.toString(perSecond / gcd),
                Long.toString(perSecond)};
    }

    @Override
    public void setup(BenchEnv env) {
        link = LettuceLink.open(env, StringCodec.UTF8);
        sync = link.connection().sync();
    }

    @Override
    Verdict decide(int subject) {
        String[] keys = {"bench:lettuce:{" + scenario.name(subject) + "}:gcra.1000"};
        List<Object> reply = sync.evalsha(LimitScripts.GCRA.sha1(), ScriptOutputType.MULTI, keys,
                args(scenario.perSecond()));
        return new Verdict((Long) reply.get(0) == 1L, (Long) reply.get(5));
    }

    @Override
    public void close() {
        LettuceLink.close(link);
    }
}
