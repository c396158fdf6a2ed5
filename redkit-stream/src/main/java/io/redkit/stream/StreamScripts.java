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

    /** XADD under the length cap: {@code {1, id, dropped}} added, or {@code {0, length}} full. */
    public static final RedisScript<List<Object>> PUBLISH = RedisScript.fromResource(StreamScripts.class,
            "publish.lua", ScriptResult.MULTI, Idempotency.NON_IDEMPOTENT);

    /** Delete the entries every group acknowledged (and, if asked, below an age limit): {@code {deleted, floor}}. */
    public static final RedisScript<List<Object>> TRIM = RedisScript.fromResource(StreamScripts.class, "trim.lua",
            ScriptResult.MULTI, Idempotency.IDEMPOTENT);

    /** Reset the idle time of entries a worker holds, if still its own; the ids another consumer took. */
    public static final RedisScript<List<Object>> TOUCH = RedisScript.fromResource(StreamScripts.class, "touch.lua",
            ScriptResult.MULTI, Idempotency.IDEMPOTENT);

    /** Mark a {@link Once} key running: {@code {1}} ours, or {@code {0, holder, pttl}}. */
    public static final RedisScript<List<Object>> ONCE_BEGIN = RedisScript.fromResource(StreamScripts.class,
            "once-begin.lua", ScriptResult.MULTI, Idempotency.NON_IDEMPOTENT);

    /** Renew a {@link Once} running marker if it is still ours; 1 renewed, 0 not ours. */
    public static final RedisScript<Long> ONCE_EXTEND = RedisScript.fromResource(StreamScripts.class,
            "once-extend.lua", ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Every script above, registered with {@code Redkit.scripts()} when a queue or {@code Once} is built. */
    public static final List<RedisScript<?>> ALL = List.of(CLAIM, DEAD_LETTER, GIVE_BACK, REAP, ONCE_RELEASE, PUBLISH, TRIM,
            TOUCH, ONCE_BEGIN, ONCE_EXTEND);

    private StreamScripts() {
    }
}
