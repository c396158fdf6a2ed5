package io.redkit.lock;

import java.util.List;

import io.redkit.Idempotency;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;

/**
 * The lock's Lua scripts, declared once and run by SHA; each file under {@code io/redkit/lock/} documents its
 * KEYS, ARGV and reply. Public so that a benchmark or another client can run exactly the same scripts.
 */
public final class LockScripts {

    /** What both acquiring scripts do when the lock is held (mark the waiter, answer the PTTL), joined in front. */
    static final String BUSY = "busy.lua";

    /** {@code SET NX PX} (or refresh of our own token); 0 when acquired, else the holder's PTTL or -1. */
    public static final RedisScript<Long> ACQUIRE = RedisScript.fromResources(LockScripts.class,
            List.of(BUSY, "acquire.lua"), ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** {@code SET NX PX} then {@code INCR} of the fence counter: {@code {1, token}} or {@code {0, pttl}}. */
    public static final RedisScript<List<Object>> FENCED_ACQUIRE = RedisScript.fromResources(LockScripts.class,
            List.of(BUSY, "fenced-acquire.lua"), ScriptResult.MULTI, Idempotency.NON_IDEMPOTENT);

    /**
     * Compare-and-delete; 1 released, 0 not ours (LOST). Publishes a wake-up when someone waits. Declared
     * non-idempotent although running it twice changes nothing: a retry after a first run that may have
     * deleted the key answers 0, and a release that ran would be reported LOST.
     */
    public static final RedisScript<Long> RELEASE = RedisScript.fromResource(LockScripts.class, "release.lua",
            ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);

    /** Compare only: 1 when the key still holds our token; confirms an acquisition after an external token. */
    public static final RedisScript<Long> CONFIRM = RedisScript.fromResource(LockScripts.class, "confirm.lua",
            ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Compare-and-PEXPIRE; 1 extended, 0 not ours (refused). */
    public static final RedisScript<Long> EXTEND = RedisScript.fromResource(LockScripts.class, "extend.lua",
            ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

    /** Every script above, registered with {@code Redkit.scripts()} when locks are built. */
    public static final List<RedisScript<?>> ALL = List.of(ACQUIRE, FENCED_ACQUIRE, RELEASE, CONFIRM, EXTEND);

    private LockScripts() {
    }
}
