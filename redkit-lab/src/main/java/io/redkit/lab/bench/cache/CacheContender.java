package io.redkit.lab.bench.cache;

import java.util.concurrent.atomic.AtomicInteger;

import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * A cache contender: {@link #call} reads a preloaded product through the contender's hit path (a miss or a wrong
 * value is an error); {@link #readThrough} is the same read with the contender's way of filling a miss from the
 * counted {@link #source}, for the miss storm.
 */
abstract class CacheContender implements Contender {

    private final String name;
    /** The source of truth behind the cache: counts its loads and, in a miss storm, takes its time. */
    final Source source = new Source();

    CacheContender(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    /** One hit-path read of {@code id}; null for a miss. */
    abstract Product read(Integer id) throws Exception;

    /** The read a user would write with this library when the key may be missing: fill it from {@link #source}. */
    abstract Product readThrough(Integer id) throws Exception;

    @Override
    public final void call(Caller caller) throws Exception {
        Integer id = Products.any(caller);
        Products.check(name, id, read(id));
    }

    /** The counted source: {@link #load} returns the product after {@link #delayMs} and counts the call. */
    static final class Source {
        private final AtomicInteger loads = new AtomicInteger();
        volatile long delayMs;

        Product load(Integer id) throws InterruptedException {
            loads.incrementAndGet();
            if (delayMs > 0) {
                Thread.sleep(delayMs);
            }
            return Products.product(id);
        }

        int loads() {
            return loads.get();
        }
    }
}
