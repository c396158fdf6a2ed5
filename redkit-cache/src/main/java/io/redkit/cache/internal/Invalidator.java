package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.RedkitException;

/**
 * Deletes entries, never writes them: UNLINK of each entry together with its fill lease (so that a load in flight
 * cannot write back), and bulk deletion by SCAN + UNLINK on every master. Invalidation does not go through the
 * breaker: skipping it would leave stale entries behind.
 *
 * <p>Bulk deletion scans twice. SCAN only promises the keys that exist for the whole scan: a fill that lands
 * during the first pass (it deletes its lease and writes its entry in one step) may hide from it, on either side
 * of the cursor. Every fill that began before the invalidation has either landed by the end of the first pass, and
 * the second pass (during which that entry exists throughout) deletes it, or still holds its lease, which the
 * first pass saw throughout and deleted, so it can never land.
 */
final class Invalidator {

    private static final int SCAN_PAGE = 500;

    private final RedisOps commands;
    private final RedisOps background;
    private final KeySchema schema;
    private final UnaryOperator<String> leaseOf;
    private final GuardedRedis redis;

    Invalidator(RedisOps commands, RedisOps background, KeySchema schema, UnaryOperator<String> leaseOf,
            GuardedRedis redis) {
        this.commands = commands;
        this.background = background;
        this.schema = schema;
        this.leaseOf = leaseOf;
        this.redis = redis;
    }

    /** UNLINKs the entries and their leases; how many of those keys existed. */
    long unlink(List<String> entryKeys) {
        List<String> keys = new ArrayList<>(entryKeys.size() * 2);
        for (String key : entryKeys) {
            keys.add(key);
            keys.add(leaseOf.apply(key));
        }
        try {
            return commands.unlink(keys.toArray(new String[0]));
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
    }

    /** SCAN MATCH the escaped prefix pattern, UNLINK page by page, twice; never KEYS. How many keys went. */
    long unlinkByPrefix(String... prefixParts) {
        String pattern = schema.pattern(prefixParts);
        AtomicLong unlinked = new AtomicLong();
        try {
            for (int pass = 0; pass < 2; pass++) {
                background.scan(pattern, SCAN_PAGE, page -> unlinked.addAndGet(
                        background.unlink(page.toArray(new String[0]))));
            }
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
        return unlinked.get();
    }
}
