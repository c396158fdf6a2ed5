package io.redkit.limit;

import java.util.List;

import io.redkit.Idempotency;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;

/**
 * The limiters' Lua scripts, one per algorithm, declared once and run by SHA; each file under
 * {@code io/redkit/limit/} documents its KEYS, ARGV and reply, and runs behind {@code prelude.lua}, the part every
 * algorithm shares (the server's time, the deciding limit, the CORRUPTLIMIT error), joined in front of it here: the
 * script sent and its SHA are those of the joined text. Every one counts, so none is idempotent: redkit
 * never sends one again after an outcome that may have run. Public so that a benchmark or another client can run
 * exactly the same scripts.
 *
 * <p>Each replies {@code {allowed 1|0, deciding limit (1-based), remaining, retry-after µs, reset-after µs,
 * server time µs}}.
 */
public final class LimitScripts {

    /** The shared part every script runs behind, joined in front of each when it is declared. */
    static final String PRELUDE = "prelude.lua";

    /** Fixed windows: a count and its window index per limit. */
    public static final RedisScript<List<Object>> FIXED_WINDOW = declare("fixed-window.lua");
    /** Sliding log: a sorted set of the permits taken in the last window. */
    public static final RedisScript<List<Object>> SLIDING_LOG = declare("sliding-log.lua");
    /** Sliding counter: two fixed-window counts, the previous one weighted. */
    public static final RedisScript<List<Object>> SLIDING_COUNTER = declare("sliding-counter.lua");
    /** GCRA: the theoretical arrival time per limit. */
    public static final RedisScript<List<Object>> GCRA = declare("gcra.lua");

    /** Every script above, registered with {@code Redkit.scripts()} when limits are built. */
    public static final List<RedisScript<?>> ALL = List.of(FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER, GCRA);

    private LimitScripts() {
    }

    /** The script of {@code algorithm}. */
    public static RedisScript<List<Object>> of(Algorithm algorithm) {
        return switch (algorithm) {
            case FIXED_WINDOW -> FIXED_WINDOW;
            case SLIDING_LOG -> SLIDING_LOG;
            case SLIDING_COUNTER -> SLIDING_COUNTER;
            case GCRA -> GCRA;
        };
    }

    private static RedisScript<List<Object>> declare(String resource) {
        return RedisScript.fromResources(LimitScripts.class, List.of(PRELUDE, resource), ScriptResult.MULTI,
                Idempotency.NON_IDEMPOTENT);
    }
}
