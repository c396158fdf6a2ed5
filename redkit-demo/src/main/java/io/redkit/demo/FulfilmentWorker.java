package io.redkit.demo;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.redkit.Redkit;
import io.redkit.stream.Message;
import io.redkit.stream.Once;
import io.redkit.stream.OnceResult;
import io.redkit.stream.RetryLaterException;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.Workers;

/**
 * Handles the {@code orders} stream, and runs the outbox relay. Delivery is at least once (a redelivery after a
 * crash, the relay and the commit both publishing): the {@link Once} helper skips work already done for an order,
 * and the effect itself, a {@code fulfilments} row under the order's primary key, is written so that a duplicate
 * the helper cannot see (its marker lost with a Redis failover) still creates no second row.
 */
@Component
public class FulfilmentWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FulfilmentWorker.class);
    private static final Duration SHUTDOWN = Duration.ofSeconds(10);

    private final StreamQueue<OrderPlaced> queue;
    private final Once once;
    private final JdbcTemplate jdbc;
    private final OrderService orders;
    private final String instance;
    private final Duration relayInterval;
    private final AtomicLong handled = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private volatile Workers workers;
    private volatile ScheduledExecutorService relay;

    public FulfilmentWorker(Redkit redkit, StreamQueue<OrderPlaced> orders, JdbcTemplate jdbc,
            OrderService orderService, DemoProperties properties, InstanceId instance) {
        this.queue = orders;
        this.once = Once.forQueue(redkit, orders);
        this.jdbc = jdbc;
        this.orders = orderService;
        this.instance = instance.value();
        this.relayInterval = properties.outbox().interval();
    }

    /** Orders this instance fulfilled, and duplicate deliveries it skipped. */
    public record Counts(long handled, long duplicates) {
    }

    @Override
    public void start() {
        workers = queue.start(this::handle);
        relay = Schedulers.daemon("demo-outbox-relay");
        long every = relayInterval.toMillis();
        relay.scheduleWithFixedDelay(this::relayOnce, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        relay.shutdownNow();
        workers.close(SHUTDOWN);
    }

    @Override
    public boolean isRunning() {
        return workers != null && workers.isRunning();
    }

    public Counts counts() {
        return new Counts(handled.get(), duplicates.get());
    }

    private void handle(Message<OrderPlaced> message) throws Exception {
        OnceResult<Integer> result = once.run(message.key(), () -> jdbc.update("INSERT INTO fulfilments (order_id,"
                + " instance) VALUES (?, ?) ON CONFLICT (order_id) DO NOTHING", message.payload().orderId(), instance));
        if (result instanceof OnceResult.Ran<Integer> ran && ran.value() == 1) {
            handled.incrementAndGet();
        } else if (result instanceof OnceResult.InProgress<Integer> busy) {
            // Another consumer is on it: hand it out again once its lease is over, without counting a failure.
            throw new RetryLaterException(busy.retryAfter(), "order " + message.key() + " is being handled elsewhere");
        } else {
            duplicates.incrementAndGet();
        }
    }

    private void relayOnce() {
        try {
            int n = orders.publishPending(relayInterval.toMillis());
            if (n > 0) {
                log.info("outbox relay published {} order event(s) that missed the stream at commit", n);
            }
        } catch (RuntimeException e) {
            log.debug("outbox relay: {}", e.toString());
        }
    }
}
