package io.redkit.session;

import java.util.List;

import io.redkit.Idempotency;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;

/**
 * The session store's Lua scripts, declared once and run by SHA; each file under {@code io/redkit/session/}
 * documents its KEYS, ARGV and reply. Public so that a benchmark or another client can run exactly the same
 * scripts. Each touches one key, so each runs on Cluster.
 */
public final class SessionScripts {

    /**
     * GET and PEXPIRE min(idle, absolute expiry − now) in one round trip: the value, nil (none), {@code "-"}
     * (past its absolute lifetime, deleted) or {@code "!"} (not a session, deleted).
     */
    public static final RedisScript<byte[]> TOUCH = RedisScript.fromResource(SessionScripts.class, "touch.lua",
            ScriptResult.BULK, Idempotency.IDEMPOTENT);

    /**
     * Replaces a live session's value over the revision the caller read: {@code "="} when written, nil when the
     * session has ended, else the value stored now (another revision: a conflict). Not idempotent: sent again
     * after its first run, it would find its own revision and report a conflict, so it is never resent blindly.
     */
    public static final RedisScript<byte[]> UPDATE = RedisScript.fromResource(SessionScripts.class, "update.lua",
            ScriptResult.BULK, Idempotency.NON_IDEMPOTENT);

    /**
     * Ends a rotation's old id only if it still holds the revision copied: 1 deleted, 0 already ended, -1 updated
     * since the copy (nothing deleted). Not idempotent: a second run after the first would answer 0.
     */
    public static final RedisScript<Long> RETIRE = RedisScript.fromResource(SessionScripts.class, "retire.lua",
            ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);

    /**
     * Ends a session an earlier release stored under its raw id, only if the key holds a first-format session of
     * that id (and, given, exactly the value copied): 1 deleted, 0 not. Idempotent: a second run finds nothing.
     */
    public static final RedisScript<Long> RETIRE_RAW = RedisScript.fromResource(SessionScripts.class,
            "retire-raw.lua", ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Prune, {@code ZADD} and expire a user's index with its latest session: the sessions left in it. */
    public static final RedisScript<Long> INDEX_ADD = RedisScript.fromResource(SessionScripts.class,
            "index-add.lua", ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Every script above, registered with {@code Redkit.scripts()} when a store is built. */
    public static final List<RedisScript<?>> ALL = List.of(TOUCH, UPDATE, RETIRE, RETIRE_RAW, INDEX_ADD);

    private SessionScripts() {
    }
}
