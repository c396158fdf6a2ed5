package io.redkit.lab.bench.cache;

import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.bench.Caller;

/**
 * The key space and values every cache contender uses: products 0 to {@value #KEYS} − 1, preloaded, each about
 * {@value #APPROX_JSON_BYTES} bytes of JSON, and one plain {@link ObjectMapper} (the default a user starts from).
 */
final class Products {

    static final int KEYS = 1000;
    static final int APPROX_JSON_BYTES = 200;
    /** Products per call of the batch op. */
    static final int BATCH = 10;
    /** Raw Lettuce's keys; {@code redis-benchmark -r 1000} makes the same of {@code __rand_int__}. */
    static final String LETTUCE_PREFIX = "bench:cache:lettuce:";

    static final ObjectMapper MAPPER = new ObjectMapper();

    /** Boxed once, so that no contender pays (or skips) boxing that another does not. */
    private static final Integer[] IDS = new Integer[KEYS];
    private static final String[] LETTUCE_KEYS = new String[KEYS];

    static {
        for (int i = 0; i < KEYS; i++) {
            IDS[i] = i;
            LETTUCE_KEYS[i] = lettuceKey(i);
        }
    }

    private Products() {
    }

    /** The product with {@code id}, the same every time. */
    static Product product(long id) {
        return new Product(id, String.format("SKU-%08d", id), "Stainless steel water bottle, 750 ml, #" + id,
                "Double-walled, keeps drinks cold for 24 hours; dishwasher safe lid.", 1_999 + id % 500, "EUR",
                (int) (id * 7 % 1000), id % 10 != 0);
    }

    /** The product with {@code id} at a revision, told from another by its {@code stock} (the near-cache op). */
    static Product revision(long id, int revision) {
        Product p = product(id);
        return new Product(id, p.sku(), p.name(), p.description(), p.priceMinor(), p.currency(), revision,
                p.active());
    }

    /** A uniformly chosen preloaded id. */
    static Integer any(Caller caller) {
        return IDS[caller.nextInt(KEYS)];
    }

    /** {@value #BATCH} distinct preloaded ids: consecutive from a uniformly chosen one, wrapping around. */
    static List<Integer> batch(Caller caller) {
        int start = caller.nextInt(KEYS);
        Integer[] ids = new Integer[BATCH];
        for (int i = 0; i < BATCH; i++) {
            ids[i] = IDS[(start + i) % KEYS];
        }
        return Arrays.asList(ids);
    }

    static Integer id(int i) {
        return IDS[i];
    }

    static String lettuceKey(Integer id) {
        return id >= 0 && id < KEYS && LETTUCE_KEYS[id] != null ? LETTUCE_KEYS[id]
                : LETTUCE_PREFIX + String.format("%012d", id);
    }

    static byte[] json(Product p) {
        try {
            return MAPPER.writeValueAsBytes(p);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fails a call whose answer is not the product asked for, so no contender can look fast by answering wrong. */
    static Product check(String impl, Integer id, Product p) {
        if (p == null || p.id() != id) {
            throw new IllegalStateException(impl + ": expected product " + id + ", got " + p);
        }
        return p;
    }
}
