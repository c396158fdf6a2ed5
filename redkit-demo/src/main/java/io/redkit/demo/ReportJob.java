package io.redkit.demo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.redkit.lock.Fencing;
import io.redkit.lock.Lease;
import io.redkit.lock.Lock;
import io.redkit.lock.Locks;
import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;

/**
 * The report of the orders, once per period, whatever the number of instances. Each instance looks five times a
 * period, at the same wall-clock moments as the others; the one that gets the fenced lock {@code orders-report} and finds no report for the period writes it,
 * through the {@link FenceGuard}: if it was paused past its lease while another instance took the lock and wrote,
 * its write is refused as stale instead of overwriting the newer one.
 */
@Component
public class ReportJob implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReportJob.class);
    static final String LOCK = "orders-report";

    /** The last run seen here (by this instance), for the ops page. */
    public record LastRun(String period, long fence, String outcome, Instant at) {
    }

    private final Lock lock;
    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final FenceGuard guard = FenceGuard.on("reports");
    private final Duration period;
    private final boolean enabled;
    private final String instance;
    private final AtomicLong busy = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private final AtomicReference<LastRun> last = new AtomicReference<>();
    private volatile Lease holding;
    private volatile ScheduledExecutorService scheduler;

    public ReportJob(Locks locks, DataSource dataSource, JdbcTemplate jdbc, DemoProperties properties,
            InstanceId instance) {
        this.lock = locks.lock(LOCK, Fencing.redisCounter());
        this.dataSource = dataSource;
        this.jdbc = jdbc;
        this.period = properties.report().period();
        this.enabled = properties.report().enabled();
        this.instance = instance.value();
        if (period.toMillis() < 500) {
            throw new IllegalArgumentException("demo.report.period must be at least 500ms, was " + period);
        }
    }

    @Override
    public void start() {
        if (!enabled) {
            return;
        }
        scheduler = Schedulers.daemon("demo-report-job");
        // Ticks on the wall clock's grid, as a cron schedule does: every instance looks at the same moments, so
        // they really race for each period and the lock is what makes one of them run it.
        long tick = period.toMillis() / 5;
        long toNextTick = tick - System.currentTimeMillis() % tick;
        scheduler.scheduleAtFixedRate(this::tick, toNextTick, tick, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null && !scheduler.isShutdown();
    }

    /** The lock's key in Redis. */
    public String lockKey() {
        return lock.key();
    }

    /** The fence of the lease this instance holds now, if it holds the lock. */
    public Optional<Long> heldFence() {
        Lease lease = holding;
        return lease == null ? Optional.empty() : Optional.of(lease.fencingToken());
    }

    public Optional<LastRun> lastRun() {
        return Optional.ofNullable(last.get());
    }

    /** Times the lock was held by another instance when this one looked, and writes refused as stale. */
    public long busy() {
        return busy.get();
    }

    public long stale() {
        return stale.get();
    }

    void tick() {
        String id = periodId(Instant.now());
        try {
            if (reportExists(id)) {
                return;
            }
            Optional<Lease> acquired = lock.tryAcquire();
            if (acquired.isEmpty()) {
                busy.incrementAndGet();
                return;
            }
            try (Lease lease = acquired.get()) {
                holding = lease;
                // Another instance may have written it between our look and our lock.
                if (!reportExists(id)) {
                    write(id, lease);
                }
            } finally {
                holding = null;
            }
        } catch (Exception e) {
            // Redis or PostgreSQL away: the next tick tries again, within the same period if it can.
            log.warn("report {}: not written this time: {}", id, e.toString());
        }
    }

    private void write(String id, Lease lease) throws SQLException {
        Map<String, Object> totals = jdbc.queryForMap("SELECT count(*) AS orders, coalesce(sum(total_cents), 0)"
                + " AS revenue FROM orders");
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (var ps = c.prepareStatement("INSERT INTO report_runs (period, instance, fence) VALUES (?, ?, ?)")) {
                    ps.setString(1, id);
                    ps.setString(2, instance);
                    ps.setLong(3, lease.fencingToken());
                    ps.executeUpdate();
                }
                // The lease is checked last, just before the guarded write: the guard is what stops a write that
                // a pause after this check would otherwise let through.
                lease.ensureHeld();
                FencedWrite w = guard.upsert(c, id, lease.fencingToken(), Map.of("instance", instance,
                        "orders", totals.get("orders"), "revenue_cents", totals.get("revenue"),
                        "written_at", Timestamp.from(Instant.now())));
                if (w.applied()) {
                    c.commit();
                    last.set(new LastRun(id, lease.fencingToken(), "written", Instant.now()));
                    log.info("report {} written under fence {}", id, lease.fencingToken());
                } else {
                    c.rollback();
                    stale.incrementAndGet();
                    last.set(new LastRun(id, lease.fencingToken(), "refused: " + w.status(), Instant.now()));
                    log.warn("report {}: write under fence {} refused ({}), a newer holder wrote it", id,
                            lease.fencingToken(), w.status());
                }
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private boolean reportExists(String id) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM reports WHERE id = ?)",
                Boolean.class, id));
    }

    /** The period {@code now} falls in, named by its start: {@code 2026-12-03T10:15:00Z}. */
    String periodId(Instant now) {
        long p = period.toMillis();
        return Instant.ofEpochMilli(now.toEpochMilli() / p * p).toString();
    }
}
