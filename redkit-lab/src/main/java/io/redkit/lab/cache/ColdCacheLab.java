package io.redkit.lab.cache;

import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.PostgresTarget;
import io.redkit.lab.Target;
import io.redkit.lab.cache.DemoService.Stats;
import io.redkit.lab.cache.ProductReads.Window;

/**
 * {@code lab cold-cache}: can the database take the load when the cache is gone? The lab starts a redis-server and
 * a PostgreSQL of its own, runs the redkit-demo jar against them, warms the product cache, and reads products at a
 * fixed rate (open loop) while it kills Redis with SIGKILL and later restarts it, empty, on the same port. It
 * measures, phase by phase, what reached PostgreSQL (the service's own count of product queries, per second), what
 * the readers saw (status and latency from when each read was due) and the cache's hit ratio; and, from
 * {@code /ops/stats} polled every 50 ms, when the cache's breaker opened after the kill and closed after the restart.
 *
 * <p>The phases: {@code warm} (each product of the working set read once, to fill the cache), {@code settle} (reads
 * at the rate, so that the service's JIT, threads and connections are warm too: without it {@code before} measured
 * a service just started, slower than the same service without its cache ten seconds later), {@code before} (warm
 * cache), {@code during} (Redis dead: every read is a query), {@code recovery} (Redis back, the breaker still open
 * until its background probes close it) and {@code after} (breaker closed, but the restarted Redis is empty: the
 * phase starts with a cold cache filling up, so its queries fall second by second).
 */
@Command(name = "cold-cache", mixinStandardHelpOptions = true,
        description = "Reads products through redkit-demo at a fixed rate while its Redis is killed and restarted"
                + " empty, and measures the database's queries per second and the reads' latency in each phase.")
public final class ColdCacheLab implements Callable<Integer> {

    /** Where the jar is when the lab runs from the repository root. */
    private static final Path DEFAULT_JAR = Path.of("redkit-demo", "target", "redkit-demo.jar");
    private static final String BUILD = "./mvnw -B -q -DskipTests package";
    private static final int PRODUCTS = 10_000;

    @Mixin
    LabOptions options;

    @Option(names = "--jar", paramLabel = "FILE", description = "the redkit-demo jar (default: ${DEFAULT-VALUE},"
            + " built by " + BUILD + " at the repository root)")
    Path jar = DEFAULT_JAR;

    @Option(names = "--rate", description = "reads per second, sent open-loop (default ${DEFAULT-VALUE})")
    int rate = 500;

    @Option(names = "--working-set", description = "the reads ask for products 1..N, all cached by the warm-up"
            + " (default ${DEFAULT-VALUE}; the table holds " + PRODUCTS + ")")
    int workingSet = 1000;

    @Option(names = "--settle-s", description = "seconds of reads at the rate before they are measured, to warm the"
            + " service up (default ${DEFAULT-VALUE})")
    int settleSeconds = 5;

    @Option(names = "--before-s", description = "seconds of reads with a warm cache (default ${DEFAULT-VALUE})")
    int beforeSeconds = 10;

    @Option(names = "--during-s", description = "seconds of reads with Redis dead (default ${DEFAULT-VALUE})")
    int duringSeconds = 10;

    @Option(names = "--after-s", description = "seconds of reads once the breaker has closed (default"
            + " ${DEFAULT-VALUE})")
    int afterSeconds = 10;

    @Option(names = "--recovery-timeout-s", description = "the longest wait, after Redis is back, for the breaker"
            + " to close (default ${DEFAULT-VALUE})")
    int recoveryTimeoutSeconds = 30;

    @Spec
    CommandSpec spec;

    /**
     * The report: what ran, each phase, and the breaker's timeline. The timeline's times and Redis' restart are in ms
     * since the SIGKILL; the breaker's closing in ms since Redis answered again.
     */
    public record Report(String redis, String database, String service, Settings settings, Phase warm,
            Phase settle, Phase before, Phase during, Phase recovery, Phase after, Long breakerOpenAfterMs,
            long redisRestartedAtMs, Long breakerClosedAfterRestartMs, List<Transition> timeline,
            List<Second> dbQueriesPerSecond, int statsPollErrors) {
    }

    /** The run's settings. */
    public record Settings(int rate, int workingSet, int settleS, int beforeS, int duringS, int afterS,
            int recoveryTimeoutS, long statsPollMs, long requestTimeoutMs) {
    }

    /**
     * One phase. The warm-up is closed-loop (16 reads at a time, latency from each send); the other phases are
     * open-loop (latency from when each read was due).
     */
    public record Phase(double seconds, long requests, @JsonProperty("non_200") long non200, long errors,
            long dbQueries, double dbQps, Double hitRatio, double p50Ms, double p99Ms, double maxMs,
            String firstError) {
    }

    /** The breaker or the cache's status as {@code /ops/stats} showed it from then on. */
    public record Transition(long ms, String breaker, String cacheStatus) {
    }

    /** Product queries in the second that starts {@code tS} seconds after the kill, and the breaker at its end. */
    public record Second(long tS, long dbQueries, String breaker) {
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (options.redisUrl != null) {
            err.println("lab cold-cache kills and restarts Redis, so it runs its own redis-server: drop --redis");
            return 2;
        }
        if (rate < 1 || rate > 10_000 || workingSet < 1 || workingSet > PRODUCTS || settleSeconds < 1
                || beforeSeconds < 1 || duringSeconds < 1 || afterSeconds < 1 || recoveryTimeoutSeconds < 1) {
            err.println("need --rate 1..10000, --working-set 1.." + PRODUCTS + " and every -s option ≥ 1");
            return 2;
        }
        if (!Files.isRegularFile(jar)) {
            err.println("lab cold-cache: no redkit-demo jar at " + jar.toAbsolutePath().normalize() + "; build it with "
                    + BUILD + " at the repository root, or pass --jar");
            return 2;
        }
        // Two clients: the reads open as many connections as they have in flight, and a service they overload
        // (its accept queue full) must not cost the lab its own look at /ops/stats, which keeps one connection.
        HttpClient reads = client();
        HttpClient stats = client();
        Report report;
        try (Target redis = Target.of(null); PostgresTarget database = PostgresTarget.of(null);
                DemoService service = DemoService.start(jar, redis.url(), database.url(), stats)) {
            report = run(redis, database.describe(), service, reads);
        }
        print(report);
        return 0;
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .build();
    }

    private Report run(Target redis, String database, DemoService service, HttpClient http) throws Exception {
        ProductReads reads = new ProductReads(http, service, workingSet, rate);
        Stats cold = service.stats();
        Window warm = reads.readEachOnce();
        Window settle = new Window();
        Window before = new Window();
        Window during = new Window();
        Window recovery = new Window();
        Window after = new Window();
        Stats atSettle = service.stats();
        Stats atStart;
        Stats atKill;
        Stats atRestart;
        Stats atClosed;
        Stats atEnd;
        long kill;
        long restarted;
        Optional<Stats> closed;
        List<Stats> samples;
        int pollErrors;
        try (OpsWatch watch = new OpsWatch(service); reads) {
            reads.start(settle);
            sleepUntil(atSettle.atNanos() + TimeUnit.SECONDS.toNanos(settleSeconds));
            atStart = enter(service, reads, before);
            sleepUntil(atStart.atNanos() + TimeUnit.SECONDS.toNanos(beforeSeconds));
            atKill = enter(service, reads, during);
            kill = System.nanoTime();
            redis.kill();
            sleepUntil(kill + TimeUnit.SECONDS.toNanos(duringSeconds));
            atRestart = enter(service, reads, recovery);
            redis.restart();
            restarted = System.nanoTime();
            closed = watch.await("CLOSED", restarted, Duration.ofSeconds(recoveryTimeoutSeconds));
            atClosed = enter(service, reads, after);
            sleepUntil(atClosed.atNanos() + TimeUnit.SECONDS.toNanos(afterSeconds));
            atEnd = service.stats();
            samples = watch.samples();
            pollErrors = watch.errors();
        }
        Long openAfter = samples.stream().filter(s -> s.atNanos() > kill && s.breaker().equals("OPEN")).findFirst()
                .map(s -> millis(s.atNanos() - kill)).orElse(null);
        return new Report(redis.describe(), database, service.describe(),
                new Settings(rate, workingSet, settleSeconds, beforeSeconds, duringSeconds, afterSeconds,
                        recoveryTimeoutSeconds, OpsWatch.INTERVAL.toMillis(), ProductReads.REQUEST_TIMEOUT.toMillis()),
                phase(warm, cold, atSettle), phase(settle, atSettle, atStart), phase(before, atStart, atKill),
                phase(during, atKill, atRestart), phase(recovery, atRestart, atClosed), phase(after, atClosed, atEnd),
                openAfter, millis(restarted - kill), closed.map(s -> millis(s.atNanos() - restarted)).orElse(null),
                timeline(samples, kill), perSecond(samples, kill), pollErrors);
    }

    /** Reads the stats at the end of a phase, then counts the reads due from now on in {@code next}. */
    private static Stats enter(DemoService service, ProductReads reads, Window next) throws Exception {
        Stats stats = service.stats();
        reads.enter(next);
        return stats;
    }

    private static Phase phase(Window reads, Stats from, Stats to) {
        double seconds = (to.atNanos() - from.atNanos()) / 1e9;
        long queries = to.productQueries() - from.productQueries();
        long hits = to.hits() - from.hits();
        long lookups = hits + to.misses() - from.misses();
        return new Phase(round(seconds, 2), reads.requests(), reads.non200(), reads.errors(), queries,
                round(queries / seconds, 1), lookups == 0 ? null : round((double) hits / lookups, 3),
                round(reads.millisAt(50), 2), round(reads.millisAt(99), 2), round(reads.millisAt(100), 2),
                reads.firstError());
    }

    /** The first answer, then every one whose breaker or cache status differs from the one before. */
    private static List<Transition> timeline(List<Stats> samples, long kill) {
        List<Transition> timeline = new ArrayList<>();
        Stats last = null;
        for (Stats s : samples) {
            if (last == null || !s.breaker().equals(last.breaker()) || !s.cacheStatus().equals(last.cacheStatus())) {
                timeline.add(new Transition(millis(s.atNanos() - kill), s.breaker(), s.cacheStatus()));
            }
            last = s;
        }
        return timeline;
    }

    /** Whole seconds, counted from the kill, that the polled answers cover from start to end. */
    private static List<Second> perSecond(List<Stats> samples, long kill) {
        List<Second> seconds = new ArrayList<>();
        if (samples.isEmpty()) {
            return seconds;
        }
        long second = TimeUnit.SECONDS.toNanos(1);
        long first = -Math.floorDiv(kill - samples.get(0).atNanos(), second);
        long last = Math.floorDiv(samples.get(samples.size() - 1).atNanos() - kill, second) - 1;
        for (long t = first; t <= last; t++) {
            Stats start = latestAt(samples, kill + t * second);
            Stats end = latestAt(samples, kill + (t + 1) * second);
            seconds.add(new Second(t, end.productQueries() - start.productQueries(), end.breaker()));
        }
        return seconds;
    }

    /** The last answer that arrived at or before {@code nanos}; the caller makes sure there is one. */
    private static Stats latestAt(List<Stats> samples, long nanos) {
        Stats latest = samples.get(0);
        for (Stats s : samples) {
            if (s.atNanos() > nanos) {
                break;
            }
            latest = s;
        }
        return latest;
    }

    private void print(Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
            out.flush();
            return;
        }
        out.println("lab cold-cache — " + report.redis() + "; " + report.database() + "; " + report.service());
        Output.table(out, rate + " reads/s open-loop over products 1.." + workingSet + "; Redis killed (SIGKILL)"
                + " after " + beforeSeconds + " s measured, restarted empty " + duringSeconds + " s later",
                new String[] {"phase", "s", "reads", "non-200", "errors", "db queries/s", "hit ratio", "p50 ms",
                    "p99 ms", "max ms"}, new String[][] {
                        row("warm", report.warm()), row("settle", report.settle()), row("before", report.before()),
                        row("during", report.during()), row("recovery", report.recovery()),
                        row("after", report.after())});
        out.println();
        out.println("breaker " + (report.breakerOpenAfterMs() == null ? "never seen OPEN"
                : "OPEN " + report.breakerOpenAfterMs() + " ms after the kill") + "; Redis back at "
                + report.redisRestartedAtMs() + " ms, breaker " + (report.breakerClosedAfterRestartMs() == null
                        ? "not CLOSED within " + recoveryTimeoutSeconds + " s"
                        : "CLOSED " + report.breakerClosedAfterRestartMs() + " ms later"));
        out.println("timeline (ms since the kill):");
        report.timeline().forEach(t -> out.printf("%8d  %-9s  cache %s%n", t.ms(), t.breaker(), t.cacheStatus()));
        StringBuilder perSecond = new StringBuilder("db queries per second (s since the kill):");
        report.dbQueriesPerSecond().forEach(s -> perSecond.append(' ').append(s.tS()).append(':')
                .append(s.dbQueries()));
        out.println(perSecond);
        out.flush();
    }

    private static String[] row(String name, Phase p) {
        return new String[] {name, String.valueOf(p.seconds()), String.valueOf(p.requests()),
            String.valueOf(p.non200()), String.valueOf(p.errors()), String.valueOf(p.dbQps()),
            p.hitRatio() == null ? "-" : String.valueOf(p.hitRatio()), String.valueOf(p.p50Ms()),
            String.valueOf(p.p99Ms()), String.valueOf(p.maxMs())};
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
