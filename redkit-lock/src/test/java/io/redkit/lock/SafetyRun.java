package io.redkit.lock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.redkit.RedisTimeoutException;
import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;
import io.redkit.testing.PostgresExtension;

/**
 * The safety run: workers take one lock over and over; now and then a holder freezes for longer than the TTL and
 * then carries on. Every holder writes its token to two PostgreSQL resources: one guarded by the fence, one not,
 * and records when it was inside. The counts come from the database, not from the workers' own view.
 */
final class SafetyRun {

    /** What the run measured. */
    record Counts(int acquisitions, int pauses, int applied, int refused, long guardedStaleAccepted,
            long guardedUpdates, long overlaps, long unguardedStale, int releasesLost, int timeouts, long millis) {
    }

    private final PostgresExtension pg;
    private final Lock lock;
    private final Duration ttl;
    private final AtomicInteger acquisitions = new AtomicInteger();
    private final AtomicInteger applied = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger pauses = new AtomicInteger();
    private final AtomicInteger releasesLost = new AtomicInteger();
    private final AtomicInteger timeouts = new AtomicInteger();
    private final FenceGuard guard = FenceGuard.on("guarded");

    SafetyRun(PostgresExtension pg, Lock lock, Duration ttl) {
        this.pg = pg;
        this.lock = lock;
        this.ttl = ttl;
    }

    Counts run(int workers, int target) throws Exception {
        createResources();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                done.add(pool.submit(() -> {
                    work(target);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(150, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        long overlaps = pg.queryLong("SELECT count(*) FROM (SELECT entered, max(exited) OVER (ORDER BY entered"
                + " ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previous_exit FROM holders) h"
                + " WHERE entered < previous_exit");
        return new Counts(acquisitions.get(), pauses.get(), applied.get(), refused.get(),
                pg.queryLong("SELECT count(*) FROM guarded_history WHERE new_fence < old_fence"),
                pg.queryLong("SELECT count(*) FROM guarded_history"), overlaps,
                pg.queryLong("SELECT stale_writes FROM unguarded WHERE id = 1"), releasesLost.get(), timeouts.get(),
                millis);
    }

    private void createResources() throws Exception {
        pg.execute("CREATE TABLE guarded (id int PRIMARY KEY, value bigint NOT NULL, fence bigint NOT NULL)");
        // The fenced resource's own history: a fence going backwards would be a stale write it accepted.
        pg.execute("CREATE TABLE guarded_history (old_fence bigint NOT NULL, new_fence bigint NOT NULL)");
        pg.execute("CREATE FUNCTION guarded_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " INSERT INTO guarded_history VALUES (OLD.fence, NEW.fence); RETURN NEW; END $$");
        pg.execute("CREATE TRIGGER guarded_audit AFTER UPDATE ON guarded FOR EACH ROW EXECUTE FUNCTION guarded_log()");
        pg.execute("CREATE TABLE unguarded (id int PRIMARY KEY, value bigint NOT NULL, max_token bigint NOT NULL,"
                + " stale_writes int NOT NULL)");
        pg.execute("CREATE TABLE holders (token bigint NOT NULL, entered bigint NOT NULL, exited bigint NOT NULL)");
        pg.execute("INSERT INTO guarded VALUES (1, 0, 0)");
        pg.execute("INSERT INTO unguarded VALUES (1, 0, 0, 0)");
    }

    private void work(int target) throws Exception {
        try (Connection db = pg.connection();
                PreparedStatement unguarded = db.prepareStatement("UPDATE unguarded SET value = ?,"
                        + " stale_writes = stale_writes + CASE WHEN ? < max_token THEN 1 ELSE 0 END,"
                        + " max_token = GREATEST(max_token, ?) WHERE id = 1");
                PreparedStatement holders = db.prepareStatement("INSERT INTO holders VALUES (?, ?, ?)")) {
            while (acquisitions.get() < target) {
                Optional<Lease> acquired;
                try {
                    acquired = lock.tryAcquire(Duration.ofSeconds(5));
                } catch (RedisTimeoutException e) {
                    timeouts.incrementAndGet(); // outcome unknown: redkit gave back what may be ours
                    continue;
                }
                if (acquired.isPresent()) {
                    holdAndWrite(acquired.get(), db, unguarded, holders);
                }
            }
        }
    }

    private void holdAndWrite(Lease lease, Connection db, PreparedStatement unguarded, PreparedStatement holders)
            throws Exception {
        acquisitions.incrementAndGet();
        long token = lease.fencingToken();
        long entered = System.nanoTime();
        if (ThreadLocalRandom.current().nextInt(100) < 3) {
            pauses.incrementAndGet();
            // The holder freezes (GC, swap) for longer than the TTL, then carries on as if it still held the lock.
            Thread.sleep(ttl.toMillis() * 3 / 2 + ThreadLocalRandom.current().nextInt(100));
        }
        FencedWrite write = guard.update(db, 1, token, Map.of("value", token));
        (write.applied() ? applied : refused).incrementAndGet();
        unguarded.setLong(1, token);
        unguarded.setLong(2, token);
        unguarded.setLong(3, token);
        unguarded.executeUpdate();
        holders.setLong(1, token);
        holders.setLong(2, entered);
        holders.setLong(3, System.nanoTime());
        holders.executeUpdate();
        try {
            if (lease.release() == ReleaseResult.LOST) {
                releasesLost.incrementAndGet();
            }
        } catch (RedisTimeoutException e) {
            timeouts.incrementAndGet(); // the key expires by its TTL
        }
    }
}
