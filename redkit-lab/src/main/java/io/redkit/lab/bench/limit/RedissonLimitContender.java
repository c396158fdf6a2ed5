package io.redkit.lab.bench.limit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.api.ratelimiter.RateLimiterArgs;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Peers;

/**
 * Redisson's {@code RRateLimiter} ({@code OVERALL}, the limit per one-second interval; its script keeps a sorted
 * set of the permits given, stamped with the client's clock) and {@code tryAcquire()}, with Redisson's defaults.
 */
final class RedissonLimitContender extends LimitContender {

    private RedissonClient redisson;
    private RRateLimiter[] limiters;

    RedissonLimitContender(Scenario scenario) {
        super(scenario, Rules.slidingSecond(scenario.perSecond()));
    }

    @Override
    public String name() {
        return "redisson";
    }

    @Override
    public void setup(BenchEnv env) {
        redisson = Redisson.create(Peers.redissonConfig(env));
        limiters = new RRateLimiter[scenario.subjects()];
        List<RFuture<Void>> rates = new ArrayList<>();
        for (int i = 0; i < limiters.length; i++) {
            limiters[i] = redisson.getRateLimiter("bench:redisson:" + scenario.name(i));
            // setRate, not trySetRate: a server kept from an earlier run may hold another rate under the name.
            rates.add(limiters[i].setRateAsync(RateLimiterArgs.of(RateType.OVERALL, scenario.perSecond(),
                    Duration.ofSeconds(1))));
        }
        rates.forEach(f -> f.toCompletableFuture().join());
    }

    @Override
    Verdict decide(int subject) {
        return Verdict.of(limiters[subject].tryAcquire());
    }

    @Override
    public void close() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }
}
