package io.redkit.lab.cache;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;

import io.redkit.lab.Target;
import io.redkit.lab.bench.RoundRunner;
import io.redkit.lab.bench.RoundRunner.Round;

/**
 * One measured phase of closed-loop callers and what it cost redis-server: the server's counters are read just
 * before the callers start and just after the last one stopped.
 *
 * @param round what the callers did (calls, errors, latency histogram, the lab process's CPU)
 * @param server what redis-server spent meanwhile (CPU seconds, GETs)
 */
record Measured(Round round, ServerUsage server) {

    /** Runs {@code loop} unmeasured for {@code warmup}: JIT, connections. */
    static void warm(RoundRunner runner, LabLoop loop, Duration warmup) throws InterruptedException {
        if (!warmup.isZero()) {
            runner.run(loop, warmup);
        }
    }

    /** Runs {@code loop} measured for {@code duration}. */
    static Measured run(Target target, RoundRunner runner, LabLoop loop, Duration duration)
            throws InterruptedException {
        ServerUsage before = ServerUsage.of(target);
        Round round = runner.run(loop, duration);
        return new Measured(round, ServerUsage.of(target).since(before));
    }

    long calls() {
        return round.ops();
    }

    long errors() {
        return round.errors();
    }

    double callsPerSecond() {
        return round(round.opsPerSecond(), 0);
    }

    /** The latency at {@code percentile}, in ms to 3 significant digits (a near-cache hit takes well under 1 µs). */
    double millisAt(double percentile) {
        return significant(round.latency().getValueAtPercentile(percentile) / 1e6);
    }

    double serverCpuSeconds() {
        return round(server.cpuSeconds(), 3);
    }

    /** Server CPU seconds per million calls; null when no call completed. */
    Double serverCpuSecondsPerMillion() {
        return round.ops() == 0 ? null : significant(server.cpuSeconds() * 1e6 / round.ops());
    }

    Double labCpuSeconds() {
        Double cpu = round.processCpuSeconds();
        return cpu == null ? null : round(cpu, 3);
    }

    /** The first error's class and message, or null. */
    String firstError() {
        Throwable e = round.firstError();
        return e == null ? null : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** {@code value} to 3 significant digits. */
    static double significant(double value) {
        return new BigDecimal(value).round(new MathContext(3)).doubleValue();
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
