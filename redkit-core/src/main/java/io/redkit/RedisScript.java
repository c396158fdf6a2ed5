package io.redkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A Lua script declared once and run by its SHA-1 ({@code EVALSHA}); when the server answers {@code NOSCRIPT}
 * (restart, failover, {@code SCRIPT FLUSH}) redkit sends the source with {@code EVAL} once, which caches it again.
 *
 * @param <T> the Java type of the reply
 */
public final class RedisScript<T> {

    private final String name;
    private final String source;
    private final String sha1;
    private final ScriptResult<T> result;
    private final Idempotency idempotency;

    private RedisScript(String name, String source, ScriptResult<T> result, Idempotency idempotency) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("script name must not be empty");
        }
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("script '" + name + "' has no source");
        }
        this.name = name;
        this.source = source;
        this.result = Objects.requireNonNull(result, "result");
        this.idempotency = Objects.requireNonNull(idempotency, "idempotency");
        this.sha1 = sha1(source);
    }

    /** Declares a script from its source text. */
    public static <T> RedisScript<T> of(String name, String source, ScriptResult<T> result,
            Idempotency idempotency) {
        return new RedisScript<>(name, source, result, idempotency);
    }

    /**
     * Declares a script from a class-path resource next to {@code anchor} (one script a file, with a header
     * comment saying KEYS, ARGV, the reply and why it must be atomic).
     */
    public static <T> RedisScript<T> fromResource(Class<?> anchor, String resource, ScriptResult<T> result,
            Idempotency idempotency) {
        return fromResources(anchor, List.of(resource), result, idempotency);
    }

    /**
     * Declares one script from several class-path resources next to {@code anchor}, joined in order with nothing
     * between them: a shared part said once (a prelude of functions) and the script that runs behind it. The SHA is
     * that of the joined text, which is what the server caches; the name is the last resource's.
     */
    public static <T> RedisScript<T> fromResources(Class<?> anchor, List<String> resources, ScriptResult<T> result,
            Idempotency idempotency) {
        Objects.requireNonNull(anchor, "anchor");
        if (resources == null || resources.isEmpty()) {
            throw new IllegalArgumentException("a script needs at least one resource");
        }
        StringBuilder source = new StringBuilder();
        for (String resource : resources) {
            source.append(read(anchor, resource));
        }
        String last = resources.get(resources.size() - 1);
        String name = last.substring(last.lastIndexOf('/') + 1).replace(".lua", "");
        return new RedisScript<>(name, source.toString(), result, idempotency);
    }

    private static String read(Class<?> anchor, String resource) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException(
                        "no script resource '" + resource + "' next to " + anchor.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + resource, e);
        }
    }

    /** The script's name, used in metrics and error messages. */
    public String name() {
        return name;
    }

    /** The Lua source. */
    public String source() {
        return source;
    }

    /** The SHA-1 the server caches the script under. */
    public String sha1() {
        return sha1;
    }

    /** How the reply is decoded. */
    public ScriptResult<T> result() {
        return result;
    }

    /** Whether running the script twice is harmless (decides retries after a timeout). */
    public Idempotency idempotency() {
        return idempotency;
    }

    private static String sha1(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }

    @Override
    public String toString() {
        return "RedisScript[" + name + ", sha1=" + sha1 + ", " + result + ", " + idempotency + "]";
    }
}
