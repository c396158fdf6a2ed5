package io.redkit.lab.cache;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * {@code GET /products/{id}} of the demo service, ids drawn uniformly from {@code 1..workingSet}: once each (to warm
 * the cache), or open-loop at a fixed rate. Open loop means one request is due every {@code 1/rate} s whatever the
 * service's latency, and a request's latency runs from when it was due, not from when it was sent: a stalled service
 * (or a stalled sender) shows as latency rather than as requests that were never sent (coordinated omission). Each
 * request counts in the {@link Window} that was current when it was due.
 */
final class ProductReads implements AutoCloseable {

    /** A request not answered in this time counts as an error; it also bounds the requests in flight. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final int WARM_CONCURRENCY = 16;

    /** The outcomes of the requests due in one phase. */
    static final class Window {
        private final Histogram latencyMicros = new ConcurrentHistogram(3);
        private final LongAdder ok = new LongAdder();
        private final LongAdder non200 = new LongAdder();
        private final LongAdder errors = new LongAdder();
        private final AtomicReference<String> firstError = new AtomicReference<>();
        private volatile long startNanos;

        void record(long latencyNanos, HttpResponse<?> response, Throwable failure) {
            latencyMicros.recordValue(Math.max(1, TimeUnit.NANOSECONDS.toMicros(latencyNanos)));
            if (failure != null) {
                errors.increment();
                firstError.compareAndSet(null, failure.toString());
            } else if (response.statusCode() == 200) {
                ok.increment();
            } else {
                non200.increment();
                firstError.compareAndSet(null, "HTTP " + response.statusCode() + " for " + response.uri());
            }
        }

        long requests() {
            return latencyMicros.getTotalCount();
        }

        long non200() {
            return non200.sum();
        }

        long errors() {
            return errors.sum();
        }

        String firstError() {
            return firstError.get();
        }

        /** The latency at {@code percentile}, in milliseconds; 0 when nothing was recorded. */
        double millisAt(double percentile) {
            return latencyMicros.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    private final HttpClient http;
    private final HttpRequest[] requests;
    private final int rate;
    private final List<Window> windows = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean sending;
    private Thread sender;

    /** Reads from {@code service} through {@code http}, {@code rate} a second once {@link #start started}. */
    ProductReads(HttpClient http, DemoService service, int workingSet, int rate) {
        this.http = http;
        this.rate = rate;
        this.requests = new HttpRequest[workingSet];
        for (int i = 0; i < workingSet; i++) {
            URI uri = service.uri("/products/" + (i + 1));
            requests[i] = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET().build();
        }
    }

    /** Reads every id of the working set once, {@value #WARM_CONCURRENCY} at a time, and waits for all answers. */
    Window readEachOnce() throws InterruptedException {
        Window warm = new Window();
        Semaphore permits = new Semaphore(WARM_CONCURRENCY);
        for (HttpRequest request : requests) {
            permits.acquire();
            send(request, System.nanoTime(), warm).whenComplete((r, e) -> permits.release());
        }
        permits.acquire(WARM_CONCURRENCY);
        return warm;
    }

    /** Starts the open-loop reads; requests due from now on count in {@code first}. */
    void start(Window first) {
        enter(first);
        sending = true;
        sender = new Thread(this::sendAtRate, "cold-cache-reads");
        sender.setDaemon(true);
        sender.start();
    }

    /** Requests due from now on count in {@code next}. */
    void enter(Window next) {
        next.startNanos = System.nanoTime();
        windows.add(next);
    }

    /** Stops sending and waits until every request sent is answered or timed out. */
    @Override
    public void close() throws InterruptedException {
        sending = false;
        if (sender != null) {
            sender.join();
        }
        long deadline = System.nanoTime() + REQUEST_TIMEOUT.toNanos() * 2;
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private void sendAtRate() {
        SplittableRandom ids = new SplittableRandom(42);
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long due = System.nanoTime();
        while (sending) {
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            send(requests[ids.nextInt(requests.length)], due, windowAt(due));
            due += interval;
        }
    }

    private Window windowAt(long nanos) {
        for (int i = windows.size() - 1; i > 0; i--) {
            if (windows.get(i).startNanos <= nanos) {
                return windows.get(i);
            }
        }
        return windows.get(0);
    }

    private CompletableFuture<HttpResponse<Void>> send(HttpRequest request, long dueNanos, Window window) {
        inFlight.incrementAndGet();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            window.record(System.nanoTime() - dueNanos, response, failure);
            inFlight.decrementAndGet();
        });
    }
}
