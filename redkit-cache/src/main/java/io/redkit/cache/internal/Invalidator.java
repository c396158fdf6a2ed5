package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.redkit.Idempotency;
import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.RedkitException;
import io.redkit.Redkit;

/**
 * Deletes entries, never writes them: UNLINK of each entry together with its fill lease (so that a load in flight
 * cannot write back), and bulk deletion by SCAN + UNLINK. Lettuce's Cluster connection splits a multi-key UNLINK
 * per slot and walks a SCAN across every master, so the same code serves both topologies. Invalidation does not
 * go through the breaker: skipping it would leave stale entries behind.
 */
final class Invalidator {

    private static final int SCAN_PAGE = 500;

    private final RedisOps commands;
    private final RedisOps background;
    private final KeySchema schema;
    private final UnaryOperator<String> leaseOf;
    private final GuardedRedis redis;

    Invalidator(Redkit redkit, KeySchema schema, UnaryOperator<String> leaseOf, GuardedRedis redis) {
        this.commands = redkit.commands();
        this.background = redkit.background();
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

    /** SCAN MATCH the escaped prefix pattern page by page, UNLINK each page; never KEYS. */
    long unlinkByPrefix(String... prefixParts) {
        ScanArgs args = ScanArgs.Builder.matches(schema.pattern(prefixParts)).limit(SCAN_PAGE);
        long unlinked = 0;
        ScanCursor cursor = ScanCursor.INITIAL;
        try {
            do {
                ScanCursor current = cursor;
                KeyScanCursor<String> page = background.execute("SCAN", Idempotency.IDEMPOTENT,
                        c -> c.scan(current, args));
                if (!page.getKeys().isEmpty()) {
                    unlinked += background.unlink(page.getKeys().toArray(new String[0]));
                }
                cursor = page;
            } while (!cursor.isFinished());
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
        return unlinked;
    }
}
