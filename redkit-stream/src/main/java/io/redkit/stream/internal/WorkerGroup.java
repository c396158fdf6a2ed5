package io.redkit.stream.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.redkit.DedicatedConnection;
import io.redkit.RedkitException;
import io.redkit.stream.MessageHandler;
import io.redkit.stream.ShutdownReport;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.Worker;
import io.redkit.stream.Workers;

/** The workers of one {@code start}: all their connections taken up front, stopped together. */
final class WorkerGroup<T> implements Workers {

    private final QueueRuntime<T> rt;
    private final List<StreamWorker<T>> workers;
    private final Consumer<WorkerGroup<T>> onClosed;
    private volatile ShutdownReport report;

    private WorkerGroup(QueueRuntime<T> rt, List<StreamWorker<T>> workers, Consumer<WorkerGroup<T>> onClosed) {
        this.rt = rt;
        this.workers = workers;
        this.onClosed = onClosed;
    }

    /**
     * Takes a dedicated connection per worker, then starts them all; when the pool cannot give them all, gives
     * back those taken and throws, so that nothing half-starts.
     */
    static <T> WorkerGroup<T> start(QueueRuntime<T> rt, MessageHandler<T> handler, Consumer<WorkerGroup<T>> onClosed) {
        StreamConfig config = rt.config();
        List<DedicatedConnection> taken = new ArrayList<>(config.workers());
        try {
            for (int i = 0; i < config.workers(); i++) {
                taken.add(rt.redkit().dedicated());
            }
        } catch (RedkitException e) {
            taken.forEach(DedicatedConnection::close);
            throw e;
        }
        long capacity = Math.max(2L * config.batchSize(), 16);
        List<StreamWorker<T>> workers = new ArrayList<>(taken.size());
        for (DedicatedConnection c : taken) {
            String consumer = ConsumerNames.next(config.consumerPrefix(), rt.stream(), config.group());
            RetryBook book = new RetryBook((int) Math.min(capacity, Integer.MAX_VALUE),
                    config.retryBackoffMin().toNanos(), config.retryBackoffMax().toNanos());
            workers.add(new StreamWorker<>(new WorkerContext<>(rt, consumer, handler, book, new WorkerControl()), c));
        }
        workers.forEach(StreamWorker::start);
        return new WorkerGroup<>(rt, List.copyOf(workers), onClosed);
    }

    @Override
    public List<Worker> workers() {
        return List.copyOf(workers);
    }

    @Override
    public boolean isRunning() {
        return workers.stream().anyMatch(StreamWorker::isRunning);
    }

    @Override
    public ShutdownReport close(Duration deadline) {
        if (deadline == null || deadline.isNegative()) {
            throw new IllegalArgumentException("deadline must be zero or more, was " + deadline);
        }
        synchronized (this) {
            if (report == null) {
                report = stop(deadline);
                onClosed.accept(this);
            }
            return report;
        }
    }

    @Override
    public void close() {
        close(rt.config().shutdownDeadline());
    }

    /*
     * Until the deadline the handlers finish what they hold; then a handler still running is interrupted, and
     * each worker gets a grace as long as a blocking read can last, to acknowledge, hand back and give its
     * connection back.
     */
    private ShutdownReport stop(Duration deadline) {
        long start = rt.clock().nanoTime();
        long end = start + deadline.toNanos();
        workers.forEach(w -> w.control().stop(end));
        boolean inTime = awaitAll(end);
        if (!inTime) {
            workers.forEach(w -> w.control().interruptHandler());
            awaitAll(rt.clock().nanoTime() + rt.config().block().plus(rt.config().commandTimeout()).toNanos());
        }
        long acknowledged = 0;
        long interrupted = 0;
        long handedBack = 0;
        for (StreamWorker<T> w : workers) {
            acknowledged += w.control().acknowledged.get();
            interrupted += w.control().interrupted.get();
            handedBack += w.control().handedBack.get();
        }
        return new ShutdownReport(workers.size(), acknowledged, interrupted, handedBack, inTime);
    }

    private boolean awaitAll(long until) {
        try {
            for (StreamWorker<T> w : workers) {
                if (!w.awaitStopped(until - rt.clock().nanoTime())) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
