package io.redkit.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.redkit.RedisPubSub;

/**
 * Both pub/sub seams, classic and sharded and the Cluster one, refuse a subscription without a channel, with an
 * empty one or without a listener, with the same errors and before they open a connection.
 */
class PubSubArgumentsTest {

    private static final RedisPubSub.Listener LISTENER = (channel, message) -> { };

    @Test
    void everySeamRefusesABadSubscriptionBeforeConnecting() {
        List<RedisPubSub> seams = List.of(
                new DefaultRedisPubSub(neverConnects(), DefaultRedisPubSub.Kind.CLASSIC, Duration.ofSeconds(1)),
                new DefaultRedisPubSub(neverConnects(), DefaultRedisPubSub.Kind.SHARDED, Duration.ofSeconds(1)),
                new ClusterShardedPubSub(neverConnects(), () -> { }, null, Duration.ofSeconds(1)));
        for (RedisPubSub seam : seams) {
            assertThatThrownBy(() -> seam.subscribe("", LISTENER)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("channel must not be empty");
            assertThatThrownBy(() -> seam.subscribe(null, LISTENER)).isInstanceOf(NullPointerException.class)
                    .hasMessage("channel");
            assertThatThrownBy(() -> seam.subscribe("c", null)).isInstanceOf(NullPointerException.class)
                    .hasMessage("listener");
        }
    }

    private static <T> Supplier<T> neverConnects() {
        return () -> {
            throw new AssertionError("a bad subscription must be refused before any connection is opened");
        };
    }
}
