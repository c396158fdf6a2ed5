package io.redkit.lab.cache;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.redkit.lab.cache.DemoService.Stats;

/**
 * Asks the demo service's {@code GET /ops/stats} every {@link #INTERVAL} on a thread of its own and keeps every
 * answer: the breaker's timeline and the database's queries second by second are read from them afterwards.
 */
final class OpsWatch implements AutoCloseable {

    /** The pause between two polls. */
    static final Duration INTERVAL = Duration.ofMillis(50);

    private final DemoService service;
    private final List<Stats> samples = new ArrayList<>();
    private final Thread poller;
    private volatile boolean polling = true;
    private int errors;

    /** Starts polling {@code service}. */
    OpsWatch(DemoService service) {
        this.service = service;
        this.poller = new Thread(this::poll, "cold-cache-ops-watch");
        poller.setDaemon(true);
        poller.start();
    }

    /**
     * Waits for the first answer that arrived after {@code afterNanos} with the breaker in {@code state}, for at most
     * {@code timeout}.
     */
    synchronized Optional<Stats> await(String state, long afterNanos, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<Stats> seen = first(state, afterNanos);
            long left = deadline - System.nanoTime();
            if (seen.isPresent() || left <= 0) {
                return seen;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** The first answer that arrived after {@code afterNanos} with the breaker in {@code state}. */
    synchronized Optional<Stats> first(String state, long afterNanos) {
        return samples.stream().filter(s -> s.atNanos() > afterNanos && s.breaker().equals(state)).findFirst();
    }

    /** Every answer so far, oldest first. */
    synchronized List<Stats> samples() {
        return List.copyOf(samples);
    }

    /** Polls that got no answer (an error, a timeout, a status other than 200). */
    synchronized int errors() {
        return errors;
    }

    /** Stops polling. */
    @Override
    public void close() throws InterruptedException {
        polling = false;
        poller.join();
    }

    private void poll() {
        long next = System.nanoTime();
        while (polling) {
            try {
                Stats stats = service.stats();
                synchronized (this) {
                    samples.add(stats);
                    notifyAll();
                }
            } catch (IOException e) {
                synchronized (this) {
                    errors++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            next = Math.max(next + INTERVAL.toNanos(), System.nanoTime()); // a slow answer delays, never bunches, polls
            long wait;
            while (polling && (wait = next - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }
}
