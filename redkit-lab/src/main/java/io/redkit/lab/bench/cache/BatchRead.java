package io.redkit.lab.bench.cache;

import java.util.List;
import java.util.Map;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * The cache's batch op: each call reads {@value Products#BATCH} preloaded products at once (consecutive ids from a
 * random one, so all distinct) through the contender's batch read; a missing or wrong product is an error.
 */
final class BatchRead implements Contender {

    /** A contender that can read several products in one call. */
    interface Batched {
        /** The products of {@code ids} that were found. */
        Map<Integer, Product> readAll(List<Integer> ids) throws Exception;
    }

    private final CacheContender contender;
    private final Batched batched;

    <C extends CacheContender & Batched> BatchRead(C contender) {
        this.contender = contender;
        this.batched = contender;
    }

    @Override
    public String name() {
        return contender.name();
    }

    @Override
    public void setup(BenchEnv env) throws Exception {
        contender.setup(env);
    }

    @Override
    public void call(Caller caller) throws Exception {
        List<Integer> ids = Products.batch(caller);
        Map<Integer, Product> found = batched.readAll(ids);
        for (Integer id : ids) {
            Products.check(name(), id, found.get(id));
        }
    }

    @Override
    public void close() {
        contender.close();
    }
}
