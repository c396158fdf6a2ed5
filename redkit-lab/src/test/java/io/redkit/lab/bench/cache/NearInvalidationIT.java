package io.redkit.lab.bench.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.testing.RedisServer;
import io.redkit.testing.RedisServerExtension;

/**
 * The near-cache invalidation op, briefly, on a real server: every pair's samples are all measured or lost, the
 * measured latencies are positive and ordered, and each pair has a latency an aim can bound. No figure is checked
 * against a time: a busy machine makes them anything.
 */
class NearInvalidationIT {

    private static final int SAMPLES = 50;

    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.standalone();

    @Test
    void everyPairCountsItsSamplesAndReportsPositiveOrderedLatencies() throws Exception {
        Benchmark.Extra extra = NearInvalidation.run(env(), CacheBenchmark.invalidationPairs(), SAMPLES);

        assertThat(extra.field()).isEqualTo("near_invalidation");
        NearInvalidation.Report report = (NearInvalidation.Report) extra.json();
        assertThat(report.samples()).isEqualTo(SAMPLES);
        assertThat(report.rows()).extracting(NearInvalidation.Figures::impl).containsExactly("redkit-near-tracking",
                "redkit-near-tracking-foreign-set", "redkit-near-tracking-bcast", "redkit-near-pubsub",
                "redisson-local", "lettuce-tracking-floor");
        for (NearInvalidation.Figures f : report.rows()) {
            assertThat(f.measured() + f.lost()).as("%s", f).isEqualTo(SAMPLES);
            assertThat(f.measured()).as("%s", f).isPositive();
            assertThat(f.minUs()).as("%s", f).isPositive();
            assertThat(f.p50Us()).as("%s", f).isGreaterThanOrEqualTo(f.minUs());
            assertThat(f.p99Us()).as("%s", f).isGreaterThanOrEqualTo(f.p50Us());
            assertThat(f.maxUs()).as("%s", f).isGreaterThanOrEqualTo(f.p99Us());
        }
        assertThat(extra.latencies()).extracting(Benchmark.Latency::impl).containsExactlyElementsOf(
                report.rows().stream().map(NearInvalidation.Figures::impl).toList());
        assertThat(extra.rows()).hasSize(6).allSatisfy(row -> assertThat(row).hasSize(extra.header().size()));
    }

    private static BenchEnv env() {
        RedisServer server = REDIS.server();
        return new BenchEnv(server.url(), server.host(), server.port(), null, "test");
    }
}
