package io.redkit.session;

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

    /** {@code SET XX PX}: 1 when the live session now holds the new value, 0 when it had ended. */
    public static final RedisScript<Long> UPDATE = RedisScript.fromResource(SessionScripts.class, "update.lua",
            ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Prune, {@code ZADD} and expire a user's index with its latest session: the sessions left in it. */
    public static final RedisScript<Long> INDEX_ADD = RedisScript.fromResource(SessionScripts.class,
            "index-add.lua", ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    private SessionScripts() {
    }
}
