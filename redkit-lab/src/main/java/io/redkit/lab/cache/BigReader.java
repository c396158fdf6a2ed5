package io.redkit.lab.cache;

import java.util.concurrent.Callable;

/**
 * One caller reading the big value in a loop on a thread of its own, from its start until {@link #close}; it
 * counts its reads and errors, which are read once it has stopped.
 */
final class BigReader implements AutoCloseable {

    private final Callable<?> read;
    private final Thread thread;
    private volatile boolean stop;
    private long reads;
    private long errors;
    private Throwable firstError;
    private long startNanos;
    private long elapsedNanos;

    private BigReader(Callable<?> read) {
        this.read = read;
        this.thread = new Thread(this::loop, "big-reader");
        this.thread.setDaemon(true);
    }

    /** Starts reading with {@code read} (one read of the big value per call). */
    static BigReader start(Callable<?> read) {
        BigReader reader = new BigReader(read);
        reader.startNanos = System.nanoTime();
        reader.thread.start();
        return reader;
    }

    private void loop() {
        while (!stop) {
            try {
                read.call();
                reads++;
            } catch (Exception e) {
                errors++;
                if (firstError == null) {
                    firstError = e;
                }
            }
        }
    }

    /** Stops after the read in flight and waits for it. */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the big reader", e);
        }
        elapsedNanos = System.nanoTime() - startNanos;
    }

    /** Reads completed; valid after {@link #close}. */
    long reads() {
        return reads;
    }

    long errors() {
        return errors;
    }

    double readsPerSecond() {
        return elapsedNanos == 0 ? 0 : Measured.round(reads * 1e9 / elapsedNanos, 1);
    }

    Throwable firstError() {
        return firstError;
    }
}
