package io.redkit.lab.lock;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.postgresql.ds.PGSimpleDataSource;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.redkit.Redkit;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.PostgresTarget;
import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;
import io.redkit.lock.jdbc.PostgresSequenceTokens;
import io.redkit.lock.redlock.Redlock;
import io.redkit.lock.redlock.RedlockConfig;
import io.redkit.lock.redlock.RedlockLease;
import io.redkit.testing.RedisServer;

/**
 * {@code lab clock-jump}: Kleppmann's second point against Redlock made a run. Five independent masters the lab
 * starts, two of them on a wall clock it can move (libfaketime). A is cut off from two normal nodes (their ACL
 * turns A's user off, as a partition would: nothing A sends reaches them), so A's Redlock is taken on the other
 * three, the two fake-clock nodes among them; their clocks jump forward, A's key expires there, and B, who reaches
 * every node, gets four of five while A still believes it holds the lock. Two holders; with a resource that checks
 * tokens from a PostgreSQL sequence, A's write is refused as stale.
 */
@Command(name = "clock-jump", mixinStandardHelpOptions = true,
        description = "Shows two Redlock holders after a clock jump on two of five nodes, and the fenced resource"
                + " that refuses the stale one. Needs libfaketime (apt-get install faketime).")
public final class ClockJumpLab implements Callable<Integer> {

    /** The exit code when libfaketime is missing. */
    static final int NO_FAKETIME = 2;

    @Mixin
    LabOptions options;

    @Option(names = "--jump-seconds", description = "how far the two nodes' clocks jump (default ${DEFAULT-VALUE})")
    long jumpSeconds = 30;

    @Option(names = "--ttl-ms", description = "the Redlock TTL (default ${DEFAULT-VALUE})")
    long ttlMillis = 10_000;

    @Option(names = "--jdbc", paramLabel = "URL", description = "PostgreSQL JDBC URL for the fenced resource and the"
            + " token sequence (default: a PostgreSQL the lab starts itself)")
    String jdbcUrl;

    @Spec
    CommandSpec spec;

    /** The report. */
    public record Report(String setup, String database, long jumpSeconds, long ttlMs, int aNodes, int bNodes,
            boolean twoHolders, long tokenA, long tokenB, boolean staleWriteRefused, String finalValue,
            List<String> timeline) {
    }

    @Override
    public Integer call() throws Exception {
        if (options.redisUrl != null) {
            throw new IllegalArgumentException("lab clock-jump starts its own five nodes; --redis is not taken");
        }
        if (jumpSeconds * 1000 <= ttlMillis) {
            throw new IllegalArgumentException("--jump-seconds must be longer than --ttl-ms, or no key expires");
        }
        if (!RedisServer.fakeClockAvailable()) {
            spec.commandLine().getErr().println("lab clock-jump needs libfaketime to move two nodes' clocks:"
                    + " apt-get install faketime (Debian, Ubuntu; Linux x86-64). Nothing was run.");
            return NO_FAKETIME;
        }
        Report report;
        try (PostgresTarget database = PostgresTarget.of(jdbcUrl)) {
            report = run(database);
        }
        print(report);
        return 0;
    }

    private Report run(PostgresTarget database) throws SQLException {
        Timeline t = new Timeline();
        t.section("five masters: n1, n2, n3 on the real clock, f1, f2 on a clock the lab moves");
        List<RedisServer> servers = new ArrayList<>();
        List<Redkit> clients = new ArrayList<>();
        String schema = "redkit_lab_clock_" + System.nanoTime();
        try (Connection db = DriverManager.getConnection(database.url())) {
            db.setAutoCommit(true);
            try (Statement s = db.createStatement()) {
                s.execute("CREATE SCHEMA " + schema);
                s.execute("CREATE TABLE " + schema + ".report (id bigint PRIMARY KEY, body text, fence bigint"
                        + " NOT NULL)");
                s.execute("INSERT INTO " + schema + ".report VALUES (1, 'initial', 0)");
            }
            try {
                RedisServer n1 = start(servers, RedisServer.builder());
                RedisServer f1 = start(servers, RedisServer.builder().fakeClock());
                RedisServer f2 = start(servers, RedisServer.builder().fakeClock());
                RedisServer n2 = start(servers, RedisServer.builder());
                RedisServer n3 = start(servers, RedisServer.builder());
                for (RedisServer server : servers) {
                    server.command("ACL", "SETUSER", "lab-a", "on", ">lab-a-secret", "~*", "&*", "+@all");
                    server.command("ACL", "SETUSER", "lab-b", "on", ">lab-b-secret", "~*", "&*", "+@all");
                }
                Redlock a = redlock(servers, "lab-a:lab-a-secret", clients);
                Redlock b = redlock(servers, "lab-b:lab-b-secret", clients);
                t.log("up: n1 :" + n1.port() + ", f1 :" + f1.port() + ", f2 :" + f2.port() + ", n2 :" + n2.port()
                        + ", n3 :" + n3.port() + " (f1, f2 on " + f1.version() + " under libfaketime)");

                for (RedisServer cut : List.of(n2, n3)) {
                    cut.command("ACL", "SETUSER", "lab-a", "off");
                    cut.command("CLIENT", "KILL", "USER", "lab-a");
                }
                t.log("A is cut off from n2 and n3: nothing A sends reaches them");
                String name = "report-" + System.nanoTime();
                RedlockLease aLease = a.tryAcquire(name).orElseThrow(
                        () -> new IllegalStateException("A did not get a majority of the three nodes it reaches"));
                PostgresSequenceTokens tokens = tokens(database.url(), schema);
                long tokenA = tokens.next(name);
                t.log("A acquires on " + aLease.nodesAcquired() + " of 5 nodes (n1, f1, f2), TTL " + ttlMillis
                        + " ms, and draws token " + tokenA);

                f1.jumpClock(Duration.ofSeconds(jumpSeconds));
                f2.jumpClock(Duration.ofSeconds(jumpSeconds));
                t.log("f1's and f2's clocks jump " + jumpSeconds + " s forward: A's key has expired there");

                Optional<RedlockLease> bLease = b.tryAcquire(name, Duration.ofSeconds(5));
                boolean two = bLease.isPresent() && aLease.isValid();
                long tokenB = bLease.isPresent() ? tokens.next(name) : -1;
                t.log("B " + bLease.map(l -> "acquires on " + l.nodesAcquired() + " of 5 nodes and draws token "
                        + tokenB).orElse("does not get a majority") + "; A's lease still valid for "
                        + aLease.remaining().toMillis() + " ms: two holders " + two);

                FenceGuard guard = FenceGuard.on(schema + ".report");
                boolean stale = false;
                String body = "initial";
                if (bLease.isPresent()) {
                    FencedWrite bWrite = guard.update(db, 1L, tokenB, Map.of("body", "written by B"));
                    FencedWrite aWrite = guard.update(db, 1L, tokenA, Map.of("body", "written by A (stale)"));
                    stale = aWrite.stale();
                    t.log("B writes with token " + tokenB + " -> " + bWrite.status() + "; A writes with token "
                            + tokenA + " -> " + aWrite.status());
                    body = read(db, schema);
                }
                return new Report("5 redis-servers started by the lab, 2 under libfaketime", database.describe(),
                        jumpSeconds, ttlMillis, aLease.nodesAcquired(), bLease.map(RedlockLease::nodesAcquired)
                                .orElse(0), two, tokenA, tokenB, stale, body, t.lines);
            } finally {
                clients.forEach(Redkit::close);
                servers.forEach(RedisServer::close);
                try (Statement s = db.createStatement()) {
                    s.execute("DROP SCHEMA " + schema + " CASCADE");
                }
            }
        }
    }

    private static RedisServer start(List<RedisServer> servers, RedisServer.Builder builder) {
        RedisServer server = builder.start();
        servers.add(server);
        return server;
    }

    private Redlock redlock(List<RedisServer> servers, String credentials, List<Redkit> clients) {
        List<Redkit> nodes = new ArrayList<>();
        for (RedisServer server : servers) {
            Redkit node = Redkit.connect("redis://" + credentials + "@127.0.0.1:" + server.port());
            clients.add(node);
            nodes.add(node);
        }
        return Redlock.create(nodes, RedlockConfig.builder().ttl(Duration.ofMillis(ttlMillis)).build());
    }

    private static PostgresSequenceTokens tokens(String url, String schema) throws SQLException {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setURL(url);
        return PostgresSequenceTokens.of(source, schema + ".fence").createIfMissing();
    }

    private static String read(Connection db, String schema) throws SQLException {
        try (Statement s = db.createStatement();
                var rs = s.executeQuery("SELECT body FROM " + schema + ".report WHERE id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void print(Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            out.println("lab clock-jump — " + report.setup() + ", " + report.database());
            report.timeline().forEach(out::println);
            out.println();
            Output.table(out, "outcome", new String[] {"what", "result"}, new String[][] {
                {"Redlock after a " + report.jumpSeconds() + " s clock jump on 2 of 5 nodes",
                    report.twoHolders() ? "TWO HOLDERS: A (" + report.aNodes() + " nodes) and B (" + report.bNodes()
                        + " nodes)" : "one holder"},
                {"fenced resource (PostgreSQL sequence tokens)", "A's write with token " + report.tokenA() + " "
                    + (report.staleWriteRefused() ? "refused as stale" : "ACCEPTED") + "; the row reads '"
                    + report.finalValue() + "'"},
            });
        }
        out.flush();
    }
}
