package io.redkit.lab.lock;

import java.io.PrintWriter;
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

import org.postgresql.ds.PGSimpleDataSource;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.redkit.Redkit;
import io.redkit.RedkitException;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.PostgresTarget;
import io.redkit.lock.Fencing;
import io.redkit.lock.Lease;
import io.redkit.lock.Lock;
import io.redkit.lock.LockConfig;
import io.redkit.lock.LockNotReplicatedException;
import io.redkit.lock.Locks;
import io.redkit.lock.ReplicaAcks;
import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;
import io.redkit.lock.jdbc.PostgresSequenceTokens;
import io.redkit.testing.RedisSentinelGroup;
import io.redkit.testing.RedisServer;
import io.redkit.testing.ReplicationCut;

/**
 * {@code lab failover}: the seeds' warning that "when the master fails over, the lock can vanish", made a run. On a
 * Sentinel group the lab starts (1 master, 1 replica, 3 sentinels), the replication link is cut, A acquires a
 * fenced lock, the master is killed before its replica got the lock, the replica is promoted, and B asks for the
 * same name. Three runs, each on a fresh group: the master's word alone (B gets the lock beside A, and the Redis
 * fence counter rolled back with the failover, so B's token repeats A's and a fenced resource cannot tell them
 * apart); replica-confirmed acquisition (A is refused within the timeout, so there is only ever B); and tokens from
 * a PostgreSQL sequence (two holders still, but the tokens never repeat and A's stale write is refused).
 *
 * <p>Holding replication back takes a link that drops data: a SIGSTOP of the replica does not (the kernel keeps
 * accepting the stream into the paused replica's socket, and it applies the lock on SIGCONT). The lab changes the
 * master's password on a connection opened beforehand and kills the replica's link
 * ({@link RedisServer#cutReplicationLinks()}): the replica cannot log in again, and nothing more reaches it.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "Shows a lock handed to a second holder by a Sentinel failover, and what replica acks and"
                + " database-issued fencing tokens do about it.")
public final class FailoverLab implements Callable<Integer> {

    private static final Duration PROMOTION = Duration.ofSeconds(30);

    @Mixin
    LabOptions options;

    @Option(names = "--jdbc", paramLabel = "URL", description = "PostgreSQL JDBC URL for the fenced resource and the"
            + " token sequence (default: a PostgreSQL the lab starts itself, from the binaries it ships with)")
    String jdbcUrl;

    @Spec
    CommandSpec spec;

    /** The report. */
    public record Report(String setup, String database, Plain plain, Confirmed confirmed, DbTokens dbTokens,
            List<String> timeline) {
    }

    /** No replica acks, the Redis fence counter. */
    public record Plain(boolean twoHolders, boolean tokenRepeated, long tokenA, long tokenB, long promotedAfterMs) {
    }

    /** Replica acks (AUTO): the acquisition the replica did not confirm is refused. */
    public record Confirmed(boolean twoHolders, boolean acquireRefused, String refusal, long refusedAfterMs) {
    }

    /** No replica acks, tokens from a PostgreSQL sequence and the resource's fence guard. */
    public record DbTokens(boolean twoHolders, boolean tokenRepeated, long tokenA, long tokenB,
            boolean staleWriteRefused, String finalValue) {
    }

    @Override
    public Integer call() throws Exception {
        if (options.redisUrl != null) {
            throw new IllegalArgumentException("lab failover starts its own Sentinel group; --redis is not taken");
        }
        Timeline timeline = new Timeline();
        Report report;
        try (PostgresTarget database = PostgresTarget.of(jdbcUrl)) {
            Plain plain = plain(timeline);
            Confirmed confirmed = confirmed(timeline);
            DbTokens dbTokens = dbTokens(database.url(), timeline);
            report = new Report("Sentinel group started by the lab: 1 master, 1 replica, 3 sentinels (down-after 1 s)",
                    database.describe(), plain, confirmed, dbTokens, timeline.lines);
        }
        print(report);
        return 0;
    }

    private Plain plain(Timeline t) {
        t.section("plain: the master's word alone, the fence counter in Redis");
        try (RedisSentinelGroup group = RedisSentinelGroup.start(); Redkit a = connect(group);
                Locks aLocks = locks(a, ReplicaAcks.none())) {
            t.log("group up");
            String name = "report-" + System.nanoTime();
            Lock lock = aLocks.lock(name, Fencing.redisCounter());
            // The counter exists on both nodes first: a first acquisition starts it from the server clock, which
            // would hide the rollback.
            lock.acquire().release();
            awaitReplicated(group);
            t.log("the fence counter of '" + name + "' is on the master and on its replica");
            RedisServer master = group.master();
            long start = System.nanoTime();
            Lease aLease;
            try (ReplicationCut cut = master.cutReplicationLinks()) {
                t.log("replication cut: the replica gets nothing more from the master");
                aLease = lock.acquire();
                t.log("A acquires with fencing token " + aLease.fencingToken() + " (the master's word alone)");
                master.kill();
                t.log("the master is killed before its replica got A's lock");
            }
            group.awaitNewMaster(master, PROMOTION);
            long promotedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            t.log("the replica is promoted, without A's lock and with the fence counter one step back");
            try (Redkit b = connect(group); Locks bLocks = locks(b, ReplicaAcks.none())) {
                Lease bLease = acquireWhenReachable(bLocks.lock(name, Fencing.redisCounter()));
                boolean two = aLease.isValid();
                t.log("B acquires with fencing token " + bLease.fencingToken() + "; A's lease still valid: " + two);
                boolean repeated = bLease.fencingToken() <= aLease.fencingToken();
                t.log(repeated ? "B's token is not above A's: a fenced resource cannot tell the two writers apart"
                        : "B's token is above A's");
                return new Plain(two, repeated, aLease.fencingToken(), bLease.fencingToken(), promotedAfter);
            }
        }
    }

    private Confirmed confirmed(Timeline t) {
        t.section("confirmed: replica acks (AUTO), the acquisition the replica did not confirm is refused");
        try (RedisSentinelGroup group = RedisSentinelGroup.start(); Redkit a = connect(group);
                Locks aLocks = locks(a, ReplicaAcks.auto())) {
            t.log("group up");
            String name = "report-" + System.nanoTime();
            Lock lock = aLocks.lock(name, Fencing.redisCounter());
            lock.acquire().release();
            awaitReplicated(group);
            RedisServer master = group.master();
            String refusal = null;
            long refusedAfter = -1;
            Optional<Lease> aLease = Optional.empty();
            try (ReplicationCut cut = master.cutReplicationLinks()) {
                t.log("replication cut");
                long start = System.nanoTime();
                try {
                    aLease = lock.tryAcquire();
                    t.log("A acquires (unexpected: the replica could not have confirmed it)");
                } catch (LockNotReplicatedException e) {
                    refusedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    refusal = e.getMessage();
                    t.log("A is refused after " + refusedAfter + " ms: " + e.getMessage());
                }
                master.kill();
                t.log("the master is killed");
            }
            group.awaitNewMaster(master, PROMOTION);
            t.log("the replica is promoted");
            try (Redkit b = connect(group); Locks bLocks = locks(b, ReplicaAcks.auto())) {
                Lease bLease = acquireWhenReachable(bLocks.lock(name, Fencing.redisCounter()));
                boolean two = aLease.map(Lease::isValid).orElse(false);
                t.log("B acquires with fencing token " + bLease.fencingToken() + "; A holds "
                        + (aLease.isPresent() ? "a lease" : "nothing") + ": two holders " + two);
                return new Confirmed(two, refusal != null, refusal, refusedAfter);
            }
        }
    }

    private DbTokens dbTokens(String databaseUrl, Timeline t) throws SQLException {
        t.section("dbTokens: the master's word alone, tokens from a PostgreSQL sequence, the resource guarded");
        String schema = "redkit_lab_failover_" + System.nanoTime();
        String table = schema + ".report";
        try (Connection db = DriverManager.getConnection(databaseUrl)) {
            db.setAutoCommit(true);
            try (Statement s = db.createStatement()) {
                s.execute("CREATE SCHEMA " + schema);
                s.execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY, body text, fence bigint NOT NULL)");
                s.execute("INSERT INTO " + table + " VALUES (1, 'initial', 0)");
            }
            PGSimpleDataSource source = new PGSimpleDataSource();
            source.setURL(databaseUrl);
            PostgresSequenceTokens tokens = PostgresSequenceTokens.of(source, schema + ".fence").createIfMissing();
            try (RedisSentinelGroup group = RedisSentinelGroup.start(); Redkit a = connect(group);
                    Locks aLocks = locks(a, ReplicaAcks.none())) {
                t.log("group up");
                String name = "report-" + System.nanoTime();
                Fencing fencing = Fencing.external(tokens);
                Lock lock = aLocks.lock(name, fencing);
                RedisServer master = group.master();
                Lease aLease;
                try (ReplicationCut cut = master.cutReplicationLinks()) {
                    t.log("replication cut");
                    aLease = lock.acquire();
                    t.log("A acquires with token " + aLease.fencingToken() + " from the sequence");
                    master.kill();
                    t.log("the master is killed");
                }
                group.awaitNewMaster(master, PROMOTION);
                t.log("the replica is promoted, without A's lock");
                try (Redkit b = connect(group); Locks bLocks = locks(b, ReplicaAcks.none())) {
                    Lease bLease = acquireWhenReachable(bLocks.lock(name, fencing));
                    boolean two = aLease.isValid();
                    FenceGuard guard = FenceGuard.on(table);
                    FencedWrite bWrite = guard.update(db, 1L, bLease.fencingToken(), Map.of("body", "written by B"));
                    t.log("B acquires with token " + bLease.fencingToken() + " (A's lease still valid: " + two
                            + ") and writes -> " + bWrite.status());
                    FencedWrite aWrite = guard.update(db, 1L, aLease.fencingToken(),
                            Map.of("body", "written by A (stale)"));
                    t.log("A writes with token " + aLease.fencingToken() + " -> " + aWrite.status());
                    String body;
                    try (Statement s = db.createStatement();
                            var rs = s.executeQuery("SELECT body FROM " + table + " WHERE id = 1")) {
                        rs.next();
                        body = rs.getString(1);
                    }
                    return new DbTokens(two, bLease.fencingToken() <= aLease.fencingToken(),
                            aLease.fencingToken(), bLease.fencingToken(), aWrite.stale(), body);
                }
            } finally {
                try (Statement s = db.createStatement()) {
                    s.execute("DROP SCHEMA " + schema + " CASCADE");
                }
            }
        }
    }

    private static Redkit connect(RedisSentinelGroup group) {
        Redkit redkit = Redkit.connect(group.url());
        // The cut refuses new connections to the master (its password changes), which a partition that separates
        // only the replica would not do: the dedicated connection a confirmed acquisition waits on is opened now.
        redkit.dedicated().close();
        return redkit;
    }

    private static Locks locks(Redkit redkit, ReplicaAcks acks) {
        return Locks.create(redkit, LockConfig.builder().replicaAcks(acks).build());
    }

    /**
     * B's first acquisition after the promotion: the client is still finding the new master for a moment, and
     * each try that meets the old address fails fast; the lock itself is free from the first try that reaches it.
     */
    private static Lease acquireWhenReachable(Lock lock) {
        long deadline = System.nanoTime() + PROMOTION.toNanos();
        while (true) {
            try {
                return lock.tryAcquire().orElseThrow(() -> new IllegalStateException("the lock is held"));
            } catch (RedkitException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    /** Waits until the replica has everything the master has written so far. */
    private static void awaitReplicated(RedisSentinelGroup group) {
        long deadline = System.nanoTime() + PROMOTION.toNanos();
        long target = offset(group.master(), "master_repl_offset");
        while (offset(group.replicas().get(0), "slave_repl_offset") < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replica did not catch up with its master");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private static long offset(RedisServer server, String field) {
        for (String line : String.valueOf(server.command("INFO", "replication")).split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        return -1;
    }

    private void print(Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            out.println("lab failover — " + report.setup() + ", " + report.database());
            report.timeline().forEach(out::println);
            out.println();
            Output.table(out, "outcome", new String[] {"setup", "two holders", "fence tokens"}, new String[][] {
                {"no replica acks, Redis counter", yes(report.plain().twoHolders()),
                    "A " + report.plain().tokenA() + ", B " + report.plain().tokenB()
                        + (report.plain().tokenRepeated() ? " (repeated: the guard cannot tell them apart)" : "")},
                {"replica acks (AUTO)", yes(report.confirmed().twoHolders()),
                    report.confirmed().acquireRefused() ? "A refused after " + report.confirmed().refusedAfterMs()
                        + " ms" : "A was not refused"},
                {"no replica acks, PostgreSQL sequence", yes(report.dbTokens().twoHolders()),
                    "A " + report.dbTokens().tokenA() + ", B " + report.dbTokens().tokenB() + "; A's stale write "
                        + (report.dbTokens().staleWriteRefused() ? "refused" : "ACCEPTED")},
            });
        }
        out.flush();
    }

    private static String yes(boolean b) {
        return b ? "yes" : "no";
    }
}
