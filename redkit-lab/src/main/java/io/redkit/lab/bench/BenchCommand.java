package io.redkit.lab.bench;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import io.redkit.RedisEndpoint;
import io.redkit.RedkitConfig;
import io.redkit.Topology;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.Target;

/**
 * {@code bench NAME|all}: runs registered benchmarks against one redis-server (started for the run unless
 * {@code --redis} names one on loopback) and prints a table or one JSON object. Files only when asked: JSON,
 * Markdown and a PNG chart under {@code --out}; with {@code --readme} (always for {@code all}) also the benchmark's
 * block in docs/bench/README.md, the files then going beside it unless {@code --out} says otherwise, and the
 * summary block of the top-level README.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Compares redkit with the libraries a user would pick instead, side by side on one"
                + " redis-server, with redis-benchmark as the ceiling. NAME: a benchmark, or all.")
public final class BenchCommand implements Callable<Integer> {

    static final String ALL = "all";

    @Parameters(index = "0", paramLabel = "NAME", description = "benchmark to run: ${COMPLETION-CANDIDATES}",
            completionCandidates = Names.class)
    String name;

    @Mixin
    LabOptions options;

    @Option(names = "--callers", split = ",", paramLabel = "N[,N…]",
            description = "caller thread counts (default: 1,16,64)")
    List<Integer> callers;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "" + BenchSettings.DEFAULT_ROUNDS,
            description = "measured rounds per contender and caller count (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--duration", paramLabel = "D", defaultValue = "default",
            description = "round length: short (300 ms, smoke tests), default (1 s) or e.g. 500ms, 2s")
    String duration;

    @Option(names = "--warmup", paramLabel = "D",
            description = "warm-up per contender and caller count (default: one round; short: 200 ms)")
    String warmup;

    @Option(names = "--out", paramLabel = "DIR",
            description = "write NAME.json, NAME.md and NAME.png there (default: none; with --readme, "
                    + "beside the README, docs/bench)")
    Path out;

    @Option(names = "--readme", description = "rewrite the bench:NAME block of the README and write the files"
            + " (always on for all)")
    boolean readme;

    @Option(names = "--readme-file", paramLabel = "FILE", defaultValue = "docs/bench/README.md",
            description = "the README whose bench:NAME blocks to rewrite (default: ${DEFAULT-VALUE})")
    Path readmeFile;

    @Option(names = "--summary-file", paramLabel = "FILE", defaultValue = "README.md",
            description = "the README whose bench:summary block to rewrite with --readme (default: ${DEFAULT-VALUE})")
    Path summaryFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Benchmark> selected = ALL.equals(name) ? Benchmarks.all() : Benchmarks.named(name).map(List::of)
                .orElse(List.of());
        if (selected.isEmpty()) {
            err.println("unknown benchmark '" + name + "'; known: " + Benchmarks.names() + " or " + ALL);
            return 2;
        }
        BenchSettings settings;
        try {
            settings = BenchSettings.of(callers, rounds, duration, warmup);
            if (options.redisUrl != null) {
                requireLoopback(options.redisUrl);
            }
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
        boolean updateReadme = readme || ALL.equals(name);
        if (updateReadme && !Files.isRegularFile(readmeFile)) {
            err.println("no README at " + readmeFile.toAbsolutePath() + "; run from the repository root or pass"
                    + " --readme-file");
            return 2;
        }
        Optional<Path> files = filesDir(this.out, updateReadme, readmeFile);
        List<BenchReport> reports = new ArrayList<>();
        try (Target target = Target.of(options.redisUrl)) {
            BenchEnv env = env(target);
            Progress progress = new Progress(err);
            progress.show("bench: " + env.describe() + "; checking peer libraries");
            Map<String, String> peers = Peers.check(env);
            Optional<RedisBenchmarkTool> tool = RedisBenchmarkTool.find();
            for (Benchmark b : selected) {
                BenchReport report = new BenchRun(b, env, settings, progress, tool, peers).run(command(b));
                reports.add(report);
                if (files.isPresent()) {
                    write(report, files.get(), updateReadme, err);
                }
                report.rows().stream().filter(r -> r.errors() > 0).forEach(r -> err.println("warning: "
                        + r.impl() + " " + r.op() + "@" + r.callers() + ": " + r.errors() + " errors, first: "
                        + r.firstError()));
            }
        }
        if (updateReadme && files.isPresent() && Files.isRegularFile(summaryFile)) {
            ReadmeMarkers.update(summaryFile, BenchSummary.BLOCK, BenchSummary.of(files.get()));
            err.println("bench: rewrote the summary in " + summaryFile);
        }
        print(out, reports);
        out.flush();
        return 0;
    }

    private void print(PrintWriter out, List<BenchReport> reports) {
        if (options.json) {
            Output.json(out, ALL.equals(name) ? new AllReport(ALL, reports) : reports.get(0));
            return;
        }
        for (BenchReport report : reports) {
            Output.table(out, "bench " + report.bench() + " — " + report.description(), BenchTables.header(report),
                    BenchTables.cells(report));
            BenchTables.notes(report).forEach(out::println);
            for (Benchmark.Extra extra : report.extras()) {
                out.println();
                Output.table(out, extra.title(), extra.header().toArray(new String[0]), BenchTables.cells(extra));
            }
            report.ratios().forEach((k, v) -> out.println("ratio " + k + " = " + v));
            out.println();
        }
    }

    /** {@code bench all --json}: the reports of every benchmark in one object. */
    record AllReport(String bench, List<BenchReport> runs) {
    }

    /**
     * Where the run's files go: {@code --out} when given, else beside the README whose blocks are rewritten
     * (docs/bench), else nowhere (a user who only wanted the JSON or the table gets no file in the checkout).
     */
    static Optional<Path> filesDir(Path out, boolean updateReadme, Path readmeFile) {
        if (out != null) {
            return Optional.of(out);
        }
        if (!updateReadme) {
            return Optional.empty();
        }
        return Optional.of(readmeFile.toAbsolutePath().getParent());
    }

    private void write(BenchReport report, Path dir, boolean updateReadme, PrintWriter err) throws Exception {
        Files.createDirectories(dir);
        Path json = dir.resolve(report.bench() + ".json");
        Path md = dir.resolve(report.bench() + ".md");
        Path png = dir.resolve(report.bench() + ".png");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(json, StandardCharsets.UTF_8))) {
            Output.json(w, report);
        }
        BenchChart.write(report, png);
        Files.writeString(md, BenchTables.markdown(report, png.getFileName().toString()), StandardCharsets.UTF_8);
        err.println("bench " + report.bench() + ": wrote " + json + ", " + md + ", " + png);
        if (updateReadme) {
            Path base = readmeFile.toAbsolutePath().getParent();
            String link = base.relativize(png.toAbsolutePath().normalize()).toString().replace('\\', '/');
            ReadmeMarkers.update(readmeFile, report.bench(), BenchTables.markdown(report, link));
            err.println("bench " + report.bench() + ": rewrote its block in " + readmeFile);
        }
    }

    private String command(Benchmark b) {
        List<String> args = spec.root().commandLine().getParseResult() == null ? List.of()
                : spec.root().commandLine().getParseResult().originalArgs();
        return "java -jar redkit-lab/target/redkit-lab.jar " + (args.isEmpty() ? "bench " + b.name()
                : String.join(" ", args));
    }

    /** The run's server as contenders see it. */
    static BenchEnv env(Target target) {
        RedkitConfig config = requireLoopback(target.url());
        RedisEndpoint endpoint = config.endpoints().get(0);
        return new BenchEnv(target.url(), endpoint.host(), endpoint.port(), config.password(), target.describe());
    }

    /** Refuses, before anything connects, every URL but one standalone server on a loopback address. */
    static RedkitConfig requireLoopback(String url) {
        RedkitConfig config = RedkitConfig.fromUrl(url);
        if (config.topology() != Topology.STANDALONE) {
            throw new IllegalArgumentException("bench runs against one standalone redis-server, not "
                    + config.topology());
        }
        RedisEndpoint endpoint = config.endpoints().get(0);
        try {
            if (!InetAddress.getByName(endpoint.host()).isLoopbackAddress()) {
                throw new IllegalArgumentException("bench talks to loopback only; " + endpoint.host()
                        + " is not a loopback address");
            }
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve " + endpoint.host(), e);
        }
        return config;
    }

    /** The names picocli offers for NAME. */
    static final class Names extends ArrayList<String> {
        Names() {
            super(Benchmarks.names());
            add(ALL);
        }
    }
}
