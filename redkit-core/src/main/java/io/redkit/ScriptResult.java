package io.redkit;

import java.util.List;

/**
 * The reply type of a Lua script, as a typed token: {@code RedisScript<Long>} pairs with {@link #INTEGER}.
 *
 * @param <T> the Java type of the reply
 */
public final class ScriptResult<T> {

    /** How the reply is decoded. */
    public enum Kind { INTEGER, STATUS, BULK, MULTI, BOOLEAN }

    /** An integer reply, as {@code Long}. */
    public static final ScriptResult<Long> INTEGER = new ScriptResult<>(Kind.INTEGER);
    /** A status reply such as {@code OK}, as {@code String}. */
    public static final ScriptResult<String> STATUS = new ScriptResult<>(Kind.STATUS);
    /** A bulk string reply, as {@code byte[]} ({@code null} for a Lua {@code false}/nil). */
    public static final ScriptResult<byte[]> BULK = new ScriptResult<>(Kind.BULK);
    /** An array reply: elements are {@code Long}, {@code byte[]}, nested lists or {@code null}. */
    public static final ScriptResult<List<Object>> MULTI = new ScriptResult<>(Kind.MULTI);
    /** A boolean reply (Lua {@code 1}/{@code true} vs {@code 0}/{@code false}/nil). */
    public static final ScriptResult<Boolean> BOOLEAN = new ScriptResult<>(Kind.BOOLEAN);

    private final Kind kind;

    private ScriptResult(Kind kind) {
        this.kind = kind;
    }

    /** How the reply is decoded. */
    public Kind kind() {
        return kind;
    }

    @Override
    public String toString() {
        return kind.name();
    }
}
