package io.redkit.lab.lock;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.PostgresTarget;
import io.redkit.lab.Target;
import io.redkit.lock.Fencing;
import io.redkit.lock.Lease;
import io.redkit.lock.Lock;
import io.redkit.lock.LockConfig;
import io.redkit.lock.Locks;
import io.redkit.lock.ReleaseResult;
import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;

/**
 * {@code lab lock-expiry}: the seeds' A/B/C story. A holds a lock with a TTL shorter than its work; the lock expires,
 * B takes it; A finishes and releases. With the seeds' {@code DEL} release A deletes B's lock and C gets in beside
 * B. With redkit's owner-checked release A is told LOST and B keeps the lock. With fencing, A's late write to the
 * resource (PostgreSQL) is refused because B wrote under a newer token.
 */
@Command(name = "lock-expiry", mixinStandardHelpOptions = true,
        description = "Shows why a lock released by DEL is broken, what the owner-checked release reports, and"
                + " how a fencing token stops a paused holder's stale write.")
public final class LockExpiryLab implements Callable<Integer> {

    @Mixin
    LabOptions options;

    @Option(names = "--ttl-ms", description = "lock TTL (default ${DEFAULT-VALUE}; the seeds' story uses 3 s)")
    long ttlMillis = 300;

    @Option(names = "--work-ms", description = "how long A works, longer than the TTL (default ${DEFAULT-VALUE})")
    long workMillis = 500;

    @Option(names = "--jdbc", paramLabel = "URL", description = "PostgreSQL JDBC URL for the fenced resource"
            + " (default: a PostgreSQL the lab starts itself, from the binaries it ships with)")
    String jdbcUrl;

    @Spec
    CommandSpec spec;

    /** The report: DESIGN §11 fields. */
    public record Report(String target, String database, long ttlMs, long workMs, Naive naive, OwnerChecked ownerChecked,
            Fenced fenced, List<String> timeline) {
    }

    /** The seeds' SET NX PX + DEL. */
    public record Naive(boolean violated, boolean bLockDeletedByA, boolean cAcquiredBesideB) {
    }

    /** redkit's compare-and-delete release. */
    public record OwnerChecked(boolean foreignReleaseRefused, String releaseResult, boolean cRefusedBesideB) {
    }

    /** Fencing tokens applied by {@link FenceGuard} on PostgreSQL, beside an unguarded column. */
    public record Fenced(long tokenA, long tokenB, int staleWritesAccepted, int staleWritesRefused,
            int unguardedStaleWritesAccepted, String finalValue) {
    }

    @Override
    public Integer call() throws Exception {
        long minTtl = LockConfig.MIN_TTL.toMillis();
        if (ttlMillis < minTtl || workMillis <= ttlMillis) {
            throw new IllegalArgumentException("need --ttl-ms ≥ " + minTtl + " and --work-ms > --ttl-ms");
        }
        Report report;
        try (Target target = Target.of(options.redisUrl); PostgresTarget database = PostgresTarget.of(jdbcUrl);
                Redkit redkit = Redkit.connect(target.url())) {
            Timeline timeline = new Timeline();
            Naive naive = naive(redkit.commands(), timeline);
            OwnerChecked checked;
            Fenced fenced;
            try (Locks locks = Locks.create(redkit, LockConfig.builder().ttl(Duration.ofMillis(ttlMillis))
                    .watchdog(false).build())) {
                checked = ownerChecked(locks, redkit.commands(), timeline);
                fenced = fenced(locks, database.url(), timeline);
            }
            report = new Report(target.describe(), database.describe(), ttlMillis, workMillis, naive, checked, fenced,
                    timeline.lines);
        }
        print(report);
        return 0;
    }

    private Naive naive(RedisOps redis, Timeline t) {
        String key = "lab:lock-expiry:{naive-" + System.nanoTime() + "}";
        t.section("naive: SET NX PX, release by DEL (the seeds' last example)");
        Duration ttl = Duration.ofMillis(ttlMillis);
        boolean a = redis.setIfAbsent(key, bytes("A"), ttl);
        long aDone = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(workMillis);
        t.log("A SET NX PX " + ttlMillis + " -> " + (a ? "acquired" : "busy") + "; A works " + workMillis + " ms");
        boolean b = waitToAcquire(redis, key, "B", ttl);
        t.log("A's lock expired while A still works; B SET NX -> " + (b ? "acquired" : "busy"));
        parkUntil(aDone);
        redis.delete(key);
        boolean deleted = redis.get(key).isEmpty();
        t.log("A finishes and DELs the key -> " + (deleted ? "B's lock is gone" : "B's lock survived"));
        boolean c = redis.setIfAbsent(key, bytes("C"), ttl);
        t.log("C SET NX while B still works -> " + (c ? "acquired: B and C both hold the lock" : "busy"));
        redis.delete(key);
        return new Naive(deleted && c, deleted, c);
    }

    private OwnerChecked ownerChecked(Locks locks, RedisOps redis, Timeline t) {
        Lock lock = locks.lock("lab-owner-" + System.nanoTime());
        t.section("owner-checked: redkit Lock, release = compare-and-delete");
        Lease a = lock.acquire();
        long aDone = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(workMillis);
        t.log("A acquires " + lock.key() + " (owner " + shortToken(a.ownerToken()) + "), works " + workMillis + " ms");
        Lease b = lock.tryAcquire(Duration.ofMillis(workMillis)).orElseThrow(
                () -> new IllegalStateException("B could not acquire after A's TTL ran out"));
        t.log("A's lock expired; B acquires (owner " + shortToken(b.ownerToken()) + ")");
        parkUntil(aDone);
        ReleaseResult released = a.release();
        Optional<String> holder = redis.getString(lock.key());
        boolean refused = holder.isPresent() && holder.get().equals(b.ownerToken());
        t.log("A releases -> " + released + "; the key still holds " + holder.map(LockExpiryLab::shortToken)
                .orElse("nothing") + (refused ? " (B's token: A could not delete it)" : ""));
        Optional<Lease> c = lock.tryAcquire();
        t.log("C tries while B still works -> " + (c.isPresent() ? "acquired (broken!)" : "busy"));
        c.ifPresent(Lease::release);
        t.log("B releases -> " + b.release());
        return new OwnerChecked(refused, released.name(), c.isEmpty());
    }

    private Fenced fenced(Locks locks, String databaseUrl, Timeline t) throws SQLException {
        Lock lock = locks.lock("lab-fenced-" + System.nanoTime(), Fencing.redisCounter());
        String schema = "redkit_lab_" + System.nanoTime();
        String table = schema + ".report";
        t.section("fenced: the resource (PostgreSQL) checks the token of every write");
        try (Connection db = DriverManager.getConnection(databaseUrl)) {
            db.setAutoCommit(true);
            try (Statement s = db.createStatement()) {
                s.execute("CREATE SCHEMA " + schema);
                s.execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY, body text, fence bigint NOT NULL,"
                        + " unguarded text)");
                s.execute("INSERT INTO " + table + " VALUES (1, 'initial', 0, 'initial')");
            }
            try {
                return fencedStory(lock, FenceGuard.on(table), db, table, t);
            } finally {
                try (Statement s = db.createStatement()) {
                    s.execute("DROP SCHEMA " + schema + " CASCADE");
                }
            }
        }
    }

    private Fenced fencedStory(Lock lock, FenceGuard guard, Connection db, String table, Timeline t)
            throws SQLException {
        Lease a = lock.acquire();
        long aDone = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(workMillis);
        t.log("A acquires with fencing token " + a.fencingToken() + ", then pauses (GC, SIGSTOP) past its TTL");
        Lease b = lock.tryAcquire(Duration.ofMillis(workMillis)).orElseThrow(
                () -> new IllegalStateException("B could not acquire after A's TTL ran out"));
        FencedWrite bWrite = guard.update(db, 1L, b.fencingToken(), Map.of("body", "written by B"));
        unguarded(db, table, "written by B");
        t.log("B acquires with token " + b.fencingToken() + " and writes -> " + bWrite.status());
        parkUntil(aDone);
        FencedWrite aWrite = guard.update(db, 1L, a.fencingToken(), Map.of("body", "written by A (stale)"));
        int unguardedAccepted = unguarded(db, table, "written by A (stale)");
        t.log("A wakes and writes with token " + a.fencingToken() + " -> " + aWrite.status()
                + "; the same write to an unguarded column -> " + (unguardedAccepted == 1 ? "accepted" : "refused"));
        a.release();
        b.release();
        String body;
        try (Statement s = db.createStatement(); var rs = s.executeQuery("SELECT body FROM " + table
                + " WHERE id = 1")) {
            rs.next();
            body = rs.getString(1);
        }
        t.log("the guarded row reads '" + body + "'");
        return new Fenced(a.fencingToken(), b.fencingToken(), aWrite.applied() ? 1 : 0, aWrite.stale() ? 1 : 0,
                unguardedAccepted, body);
    }

    private static int unguarded(Connection db, String table, String value) throws SQLException {
        try (var ps = db.prepareStatement("UPDATE " + table + " SET unguarded = ? WHERE id = 1")) {
            ps.setString(1, value);
            return ps.executeUpdate();
        }
    }

    private boolean waitToAcquire(RedisOps redis, String key, String who, Duration ttl) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(workMillis);
        while (System.nanoTime() < deadline) {
            if (redis.setIfAbsent(key, bytes(who), ttl)) {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // the seeds' client polls; so does this one
        }
        return false;
    }

    private void print(Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            out.println("lab lock-expiry — " + report.target() + ", " + report.database() + ", TTL " + ttlMillis
                    + " ms, A works " + workMillis + " ms");
            report.timeline().forEach(out::println);
            out.println();
            Output.table(out, "outcome", new String[] {"release", "result"}, new String[][] {
                {"DEL (naive)", report.naive().violated() ? "BROKEN: A deleted B's lock, C got in beside B"
                    : "not violated this run"},
                {"owner-checked", "A told " + report.ownerChecked().releaseResult() + "; B's lock kept: "
                    + report.ownerChecked().foreignReleaseRefused()},
                {"fenced write", report.fenced().staleWritesRefused() + " stale write refused, "
                    + report.fenced().staleWritesAccepted() + " accepted (unguarded: "
                    + report.fenced().unguardedStaleWritesAccepted() + " accepted)"},
            });
        }
        out.flush();
    }

    private static void parkUntil(long deadlineNanos) {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left); // A "works": the point is that it outlives its TTL
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String shortToken(String token) {
        return token.length() <= 8 ? token : token.substring(0, 8) + "…";
    }
}
