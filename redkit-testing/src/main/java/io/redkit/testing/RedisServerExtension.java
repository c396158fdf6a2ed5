package io.redkit.testing;

import java.util.Objects;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension running one {@link RedisServer}: per test class from a static
 * {@code @RegisterExtension} field, per test method from an instance field.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension redis = RedisServerExtension.standalone();
 * }</pre>
 *
 * <p>After each test a paused server is resumed and a killed one restarted. Keys are not flushed
 * between tests: use unique keys, or call {@link #flushAll()}.
 */
public final class RedisServerExtension extends ScopedExtension<RedisServer> {

    private final RedisServer.Builder builder;

    private RedisServerExtension(RedisServer.Builder builder) {
        this.builder = builder;
    }

    /** Returns an extension for a default standalone server. */
    public static RedisServerExtension standalone() {
        return new RedisServerExtension(RedisServer.builder());
    }

    /** Returns an extension that starts servers from this builder. */
    public static RedisServerExtension from(RedisServer.Builder builder) {
        return new RedisServerExtension(Objects.requireNonNull(builder, "builder"));
    }

    /** Adds a redis.conf directive, for example {@code withArgs("requirepass", "s3cret")}; call before the server starts. */
    public RedisServerExtension withArgs(String name, String... values) {
        if (isStarted()) {
            throw new IllegalStateException("withArgs must be called before the server starts");
        }
        builder.arg(name, values);
        return this;
    }

    @Override
    RedisServer startResource(ExtensionContext context) {
        return builder.start();
    }

    @Override
    void heal(RedisServer server) {
        server.heal();
    }

    /** Returns the running server. */
    public RedisServer server() {
        return resource();
    }

    /** Returns {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return server().url();
    }

    /** Returns {@code 127.0.0.1}. */
    public String host() {
        return server().host();
    }

    /** Returns the server's port. */
    public int port() {
        return server().port();
    }

    /** Pauses the server with SIGSTOP. */
    public void pause() {
        server().pause();
    }

    /** Resumes a paused server with SIGCONT. */
    public void resume() {
        server().resume();
    }

    /** Kills the server with SIGKILL. */
    public void kill() {
        server().kill();
    }

    /** Stops the server gracefully. */
    public void stop() {
        server().stop();
    }

    /** Restarts the server on the same port. */
    public void restart() {
        server().restart();
    }

    /** Runs one admin command; see {@link RedisServer#command}. */
    public Object command(String... args) {
        return server().command(args);
    }

    /** Removes all keys (FLUSHALL). */
    public void flushAll() {
        server().flushAll();
    }
}
