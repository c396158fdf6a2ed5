package io.redkit.lab.bench.limit;

import java.time.Duration;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;

/**
 * Bucket4j's Lettuce proxy manager (compare-and-swap: read the bucket, decide in the JVM, write it back only if
 * nobody wrote meanwhile, else retry), a bucket of one second's worth refilled greedily, on the client's clock;
 * its defaults otherwise, with buckets expiring once full again so that keys do not pile up.
 */
final class Bucket4jContender extends LimitContender {

    private LettuceLink<byte[]> link;
    private Bucket[] buckets;

    Bucket4jContender(Scenario scenario) {
        super(scenario, Rules.tokenBucket(scenario.perSecond(), scenario.perSecond()));
    }

    @Override
    public String name() {
        return "bucket4j";
    }

    @Override
    public void setup(BenchEnv env) {
        link = LettuceLink.open(env, RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
        ProxyManager<String> proxies = Bucket4jLettuce.casBasedBuilder(link.connection())
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                        Duration.ofSeconds(10)))
                .build();
        long perSecond = scenario.perSecond();
        BucketConfiguration config = BucketConfiguration.builder()
                .addLimit(l -> l.capacity(perSecond).refillGreedy(perSecond, Duration.ofSeconds(1))).build();
        buckets = new Bucket[scenario.subjects()];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = proxies.builder().build("bench:bucket4j:" + scenario.name(i), () -> config);
        }
    }

    @Override
    Verdict decide(int subject) {
        return Verdict.of(buckets[subject].tryConsume(1));
    }

    @Override
    public void close() {
        LettuceLink.close(link);
    }
}
