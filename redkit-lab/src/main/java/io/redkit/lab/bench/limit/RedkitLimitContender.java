package io.redkit.lab.bench.limit;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.observation.ObservationRegistry;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.limit.Decision;
import io.redkit.limit.Limit;
import io.redkit.limit.LimiterConfig;
import io.redkit.limit.Limits;
import io.redkit.limit.LimitsConfig;
import io.redkit.limit.RateLimiter;
import io.redkit.limit.UnavailablePolicy;

/**
 * redkit's {@code RateLimiter} with its defaults, GCRA (burst of one second's worth) or a fixed window of one
 * second. Fail-closed, and a decision the policy made instead of Redis is an error of the round: the bench
 * measures decisions Redis made.
 */
final class RedkitLimitContender extends LimitContender {

    private final boolean gcra;
    private final boolean observed;
    private Redkit redkit;
    private RateLimiter limiter;

    RedkitLimitContender(Scenario scenario, boolean gcra) {
        this(scenario, gcra, false);
    }

    /**
     * {@code observed}: with an {@code ObservationRegistry} whose one handler does nothing, so that each decision
     * is a real observation (started, scoped, tagged, stopped) and the row shows what observing costs by itself,
     * beside {@code redkit-gcra} without a registry.
     */
    RedkitLimitContender(Scenario scenario, boolean gcra, boolean observed) {
        super(scenario, gcra ? Rules.tokenBucket(scenario.perSecond(), scenario.perSecond())
                : Rules.fixedSecond(scenario.perSecond()));
        this.gcra = gcra;
        this.observed = observed;
    }

    @Override
    public String name() {
        return (gcra ? "redkit-gcra" : "redkit-fixed") + (observed ? "-observed" : "");
    }

    @Override
    public void setup(BenchEnv env) {
        RedkitConfig.Builder config = RedkitConfig.builder().url(env.url()).name("bench-" + name());
        if (observed) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(context -> true);
            config.observationRegistry(registry);
        }
        redkit = Redkit.create(config.build());
        Duration second = Duration.ofSeconds(1);
        Limit limit = gcra ? Limit.gcra(scenario.perSecond(), second)
                : Limit.fixedWindow(scenario.perSecond(), second);
        limiter = Limits.create(redkit, LimitsConfig.builder().namespace("bench." + name()).build())
                .limiter(LimiterConfig.of(scenario.op(), UnavailablePolicy.FAIL_CLOSED, limit));
    }

    @Override
    Verdict decide(int subject) {
        Decision d = limiter.tryAcquire(scenario.name(subject));
        if (!d.counted()) {
            throw new IllegalStateException("decided by policy " + d.basis() + ": Redis did not answer in time");
        }
        Instant at = d.decidedAt();
        return new Verdict(d.allowed(), at.getEpochSecond() * 1_000_000 + at.getNano() / 1000);
    }

    @Override
    public void close() {
        if (redkit != null) {
            redkit.close();
        }
    }
}
