package io.redkit.stream.internal;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.redkit.RedisPubSub;
import io.redkit.Redkit;
import io.redkit.stream.MessageCodec;
import io.redkit.stream.SignalListener;
import io.redkit.stream.SignalMode;
import io.redkit.stream.Signals;
import io.redkit.stream.StreamException;

/**
 * {@link Signals} over a {@link SignalTransport}. Meters {@code redkit.signal.published}, {@code .received},
 * {@code .undecodable} and {@code .missed} (reconnects after which signals were lost), tagged client and mode.
 */
public final class DefaultSignals<T> implements Signals<T> {

    private static final Logger log = LoggerFactory.getLogger(DefaultSignals.class);

    private final SignalTransport transport;
    private final MessageCodec<T> codec;
    private final List<Subscription> open = new CopyOnWriteArrayList<>();
    private final Counter published;
    private final Counter received;
    private final Counter undecodable;
    private final Counter missed;

    /** Builds the signals; use {@link Signals#create}. */
    public DefaultSignals(Redkit redkit, MessageCodec<T> codec) {
        this.transport = SignalTransports.forTopology(redkit);
        this.codec = codec;
        Tags tags = Tags.of("client", redkit.config().name(), "mode", transport.mode().name().toLowerCase());
        this.published = Counter.builder("redkit.signal.published").description("signals published by this process")
                .tags(tags).register(redkit.meters());
        this.received = Counter.builder("redkit.signal.received")
                .description("signals decoded and handed to a listener").tags(tags).register(redkit.meters());
        this.undecodable = Counter.builder("redkit.signal.undecodable")
                .description("signals received that did not decode, handed to the listener's onUndecodable").tags(tags)
                .register(redkit.meters());
        this.missed = Counter.builder("redkit.signal.missed")
                .description("reconnects of a subscription: signals published meanwhile were lost").tags(tags)
                .register(redkit.meters());
    }

    @Override
    public long publish(String channel, T signal) {
        requireChannel(channel);
        Objects.requireNonNull(signal, "signal");
        byte[] bytes;
        try {
            bytes = codec.encode(signal);
        } catch (Exception e) {
            throw new StreamException("signal could not be encoded, nothing was published: " + e, e);
        }
        long receivers = transport.publish(channel, bytes);
        published.increment();
        return receivers;
    }

    @Override
    public Subscription subscribe(String channel, SignalListener<T> listener) {
        requireChannel(channel);
        Objects.requireNonNull(listener, "listener");
        AutoCloseable onMissed = transport.onReconnect(() -> {
            missed.increment();
            listener.onMissed(channel);
        });
        RedisPubSub.Subscription subscription;
        try {
            subscription = transport.subscribe(channel, (ch, bytes) -> deliver(ch, bytes, listener));
        } catch (RuntimeException e) {
            closeQuietly(onMissed);
            throw e;
        }
        Subscription handle = new Subscription() {
            private volatile boolean closed;

            @Override
            public String channel() {
                return channel;
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    open.remove(this);
                    subscription.close();
                    closeQuietly(onMissed);
                }
            }
        };
        open.add(handle);
        return handle;
    }

    private void deliver(String channel, byte[] bytes, SignalListener<T> listener) {
        T signal;
        try {
            signal = codec.decode(bytes);
        } catch (Exception e) {
            undecodable.increment();
            listener.onUndecodable(channel, bytes, e);
            return;
        }
        received.increment();
        listener.onSignal(channel, signal);
    }

    private static void requireChannel(String channel) {
        if (channel == null || channel.isEmpty()) {
            throw new IllegalArgumentException("channel must not be null or empty");
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.debug("closing a reconnect action failed", e);
        }
    }

    @Override
    public boolean isConnected() {
        return transport.isConnected();
    }

    @Override
    public SignalMode mode() {
        return transport.mode();
    }

    @Override
    public void close() {
        for (Subscription s : List.copyOf(open)) {
            s.close();
        }
    }
}
