package io.redkit.demo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import io.redkit.spring.SpringTransactions;
import io.redkit.stream.StreamQueue;

/**
 * Orders under an Idempotency-Key. PostgreSQL decides which request creates the order: the key is a unique
 * constraint, so of 50 concurrent requests with one key one inserts and 49 find its row (the same order, 200).
 * The event goes to the stream after the commit; an order whose event did not make it (Redis down at that moment,
 * or the process died) is found by the relay ({@link #publishPending}) through {@code published_at}, an outbox
 * column. Both publish once per order ({@code publishOnce}), so an order's event is on the stream once however its
 * first publish ended; the worker's side ({@link FulfilmentWorker}) is idempotent all the same.
 */
@Service
public class OrderService {

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);
    private static final Duration REMEMBER_PUBLISHED = Duration.ofDays(1);
    private static final String COLUMNS = "id, placed_by, product_id, quantity, total_cents, created_at, request_hash";

    /** What a POST /orders came to. */
    public sealed interface Outcome {
        /** This request created the order. */
        record Created(Order order) implements Outcome {
        }
        /** An earlier request with this key created it: the same order. */
        record Replayed(Order order) implements Outcome {
        }
        /** The key was used for another request body. */
        record KeyReused() implements Outcome {
        }
        /** No such product. */
        record NoProduct() implements Outcome {
        }
    }

    private record Row(Order order, String requestHash) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final StreamQueue<OrderPlaced> queue;
    private final AtomicLong published = new AtomicLong();

    public OrderService(JdbcTemplate jdbc, TransactionTemplate transactions, StreamQueue<OrderPlaced> orders) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.queue = orders;
    }

    /** Creates {@code account}'s order of {@code key}, or finds the one an earlier request with that key created. */
    @Transactional
    public Outcome place(String account, String key, long productId, int quantity) {
        String hash = requestHash(productId, quantity);
        // ON CONFLICT DO NOTHING waits for a concurrent insert of the same key to commit or roll back, then does
        // nothing: the row is then visible to the SELECT below (READ COMMITTED takes a new snapshot per statement).
        List<Row> inserted = jdbc.query("INSERT INTO orders (placed_by, idempotency_key, request_hash, product_id,"
                + " quantity, total_cents) SELECT ?, ?, ?, p.id, ?, p.price_cents * ? FROM products p WHERE p.id = ?"
                + " ON CONFLICT (placed_by, idempotency_key) DO NOTHING RETURNING " + COLUMNS, OrderService::row,
                account, key, hash, quantity, quantity, productId);
        if (!inserted.isEmpty()) {
            Order order = inserted.get(0).order();
            SpringTransactions.afterCommit().register(() -> publish(order));
            return new Outcome.Created(order);
        }
        Optional<Row> existing = jdbc.query("SELECT " + COLUMNS + " FROM orders WHERE placed_by = ?"
                + " AND idempotency_key = ?", OrderService::row, account, key).stream().findFirst();
        if (existing.isEmpty()) {
            return new Outcome.NoProduct();
        }
        return existing.get().requestHash().equals(hash) ? new Outcome.Replayed(existing.get().order())
                : new Outcome.KeyReused();
    }

    /**
     * Publishes the events of orders committed more than {@code olderThanMillis} ago whose event is not on the
     * stream yet; rows are locked (SKIP LOCKED) so two instances' relays do not publish the same order together.
     *
     * @return how many were published
     */
    public int publishPending(long olderThanMillis) {
        Integer count = transactions.execute(status -> {
            List<Row> pending = jdbc.query("SELECT " + COLUMNS + " FROM orders WHERE published_at IS NULL"
                    + " AND created_at < now() - make_interval(secs => ?) ORDER BY id LIMIT 100"
                    + " FOR UPDATE SKIP LOCKED", OrderService::row, olderThanMillis / 1000.0);
            pending.forEach(row -> send(row.order()));
            return pending.size();
        });
        return count == null ? 0 : count;
    }

    /** Events this instance put on the stream. */
    public long published() {
        return published.get();
    }

    private void publish(Order order) {
        try {
            send(order);
        } catch (RuntimeException e) {
            // Committed, not published: the relay publishes it once Redis answers again.
            log.warn("order {}: event not published yet, the relay will retry: {}", order.id(), e.toString());
        }
    }

    /**
     * Puts the order's event on the stream (keyed by the order id) unless it is there already, then marks the order
     * published. Both paths publish with {@code publishOnce}: a commit-time publish that timed out may still have
     * run (its reply was lost, not the command), and the relay's publish of that order then finds the first entry
     * instead of adding a second. The key is remembered a day, far longer than any order stays unpublished.
     */
    private void send(Order order) {
        queue.publishOnce(String.valueOf(order.id()), event(order), REMEMBER_PUBLISHED);
        published.incrementAndGet();
        jdbc.update("UPDATE orders SET published_at = now() WHERE id = ?", order.id());
    }

    private static OrderPlaced event(Order order) {
        return new OrderPlaced(order.id(), order.productId(), order.quantity(), order.totalCents());
    }

    private static Row row(ResultSet rs, int i) throws SQLException {
        return new Row(new Order(rs.getLong("id"), rs.getString("placed_by"), rs.getLong("product_id"),
                rs.getInt("quantity"), rs.getLong("total_cents"), rs.getTimestamp("created_at").toInstant()),
                rs.getString("request_hash"));
    }

    private static String requestHash(long productId, int quantity) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest((productId + ":" + quantity)
                    .getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
