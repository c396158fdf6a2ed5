package io.redkit.stream;

import java.util.List;

import io.redkit.Idempotency;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;

/**
 * The queue's Lua scripts, declared once and run by SHA; each file under {@code io/redkit/stream/} documents its
 * KEYS, ARGV and reply. Public so that another client (a Go or Node worker on the same stream) can run exactly
 * the same steps.
 */
public final class StreamScripts {

    /** XAUTOCLAIM and each claimed entry's delivery count: {@code {next, {{id, deliveries, fields}…}, gone}}. */
    public static final RedisScript<List<Object>> CLAIM = RedisScript.fromResource(StreamScripts.class, "claim.lua",
            ScriptResult.MULTI, Idempotency.NON_IDEMPOTENT);

    /** Copy a pending entry to the dead-letter stream with why, and XACK it, in one step; 1 moved, 0 not ours. */
    public static final RedisScript<Long> DEAD_LETTER = RedisScript.fromResource(StreamScripts.class,
            "dead-letter.lua", ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);

    /** Make held entries claimable at once with chosen delivery counts; how many were handed back. */
    public static final RedisScript<Long> GIVE_BACK = RedisScript.fromResource(StreamScripts.class, "give-back.lua",
            ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Hand a dead consumer's pending entries to an heir and delete it; how many moved, -1 when it was kept. */
    public static final RedisScript<Long> REAP = RedisScript.fromResource(StreamScripts.class, "reap.lua",
            ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Delete a {@link Once} running marker if it is still ours; 1 deleted, 0 not ours. */
    public static final RedisScript<Long> ONCE_RELEASE = RedisScript.fromResource(StreamScripts.class,
            "once-release.lua", ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    private StreamScripts() {
    }
}
