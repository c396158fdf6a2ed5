package io.redkit.lab;

import java.time.Duration;

import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.redkit.Idempotency;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.RedisServer;

/**
 * The redis-server a lab run talks to, with the faults it can inject: a server the lab started (SIGSTOP, SIGKILL,
 * restart) or one given by URL ({@code CLIENT PAUSE} only; it cannot be killed from here).
 */
public abstract class Target implements AutoCloseable {

    /** Starts a private redis-server, or wraps {@code url} when given. */
    public static Target of(String url) {
        return url == null ? new Owned(RedisServer.start()) : new External(url);
    }

    /** The URL to connect to. */
    public abstract String url();

    /** A description for the report. */
    public abstract String describe();

    /** Makes the server stop answering for at least {@code atLeast}. */
    public abstract void pause(Duration atLeast);

    /** Makes it answer again (for an external server: waits until its pause has run out). */
    public abstract void resume();

    /** Whether {@link #kill()} is possible. */
    public abstract boolean canKill();

    /** Kills the server. */
    public abstract void kill();

    /** Starts it again on the same port. */
    public abstract void restart();

    /** Runs {@code SCRIPT FLUSH}. */
    public abstract void scriptFlush();

    /** The text of {@code INFO section}: the server's own counters (CPU, commands), for what a run cost it. */
    public abstract String info(String section);

    @Override
    public abstract void close();

    private static final class Owned extends Target {
        private final RedisServer server;

        Owned(RedisServer server) {
            this.server = server;
        }

        @Override public String url() { return server.url(); }
        @Override public String describe() { return "redis-server " + server.version() + " started by the lab on "
                + server.host() + ":" + server.port(); }
        @Override public void pause(Duration atLeast) { server.pause(); }
        @Override public void resume() { server.resume(); }
        @Override public boolean canKill() { return true; }
        @Override public void kill() { server.kill(); }
        @Override public void restart() { server.restart(); }
        @Override public void scriptFlush() { server.command("SCRIPT", "FLUSH"); }
        @Override public String info(String section) { return String.valueOf(server.command("INFO", section)); }
        @Override public void close() { server.close(); }
    }

    private static final class External extends Target {
        private static final RedisCodec<String, byte[]> CODEC =
                RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
        private final Redkit admin;
        private final String url;
        private long pausedUntil;

        External(String url) {
            this.url = url;
            this.admin = Redkit.create(RedkitConfig.builder().url(url).name("lab-admin")
                    .commandTimeout(Duration.ofSeconds(5)).build());
        }

        @Override public String url() { return url; }
        @Override public String describe() { return "external " + admin.config().maskedUrl(); }

        @Override
        public void pause(Duration atLeast) {
            long ms = atLeast.toMillis();
            admin.commands().execute("CLIENT PAUSE", Idempotency.IDEMPOTENT, c -> c.dispatch(CommandType.CLIENT,
                    new StatusOutput<>(CODEC),
                    new CommandArgs<>(CODEC).add("PAUSE").add(ms).add("ALL")));
            pausedUntil = System.nanoTime() + atLeast.toNanos();
        }

        @Override
        public void resume() {
            long left = pausedUntil - System.nanoTime();
            if (left > 0) {
                try {
                    Thread.sleep(left / 1_000_000 + 20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override public boolean canKill() { return false; }
        @Override public void kill() { throw new UnsupportedOperationException("cannot kill an external server"); }
        @Override public void restart() { throw new UnsupportedOperationException("cannot restart an external server"); }

        @Override
        public void scriptFlush() {
            admin.commands().execute("SCRIPT FLUSH", Idempotency.IDEMPOTENT, c -> c.scriptFlush());
        }

        @Override
        public String info(String section) {
            return admin.commands().execute("INFO", Idempotency.IDEMPOTENT, c -> c.info(section));
        }

        @Override public void close() { admin.close(); }
    }
}
