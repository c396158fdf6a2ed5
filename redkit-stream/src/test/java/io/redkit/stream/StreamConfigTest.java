package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;

class StreamConfigTest {

    @Test
    void defaultsAreTheDocumentedConstants() {
        StreamConfig c = StreamConfig.builder("orders").build();
        assertThat(c.name()).isEqualTo("orders");
        assertThat(c.namespace()).isEqualTo(StreamConfig.DEFAULT_NAMESPACE);
        assertThat(c.group()).isEqualTo(StreamConfig.DEFAULT_GROUP);
        assertThat(c.maxLength()).isEqualTo(StreamConfig.DEFAULT_MAX_LENGTH);
        assertThat(c.maxAge()).isNull();
        assertThat(c.maxDeliveries()).isEqualTo(StreamConfig.DEFAULT_MAX_DELIVERIES);
        assertThat(c.visibilityTimeout()).isEqualTo(StreamConfig.DEFAULT_VISIBILITY_TIMEOUT);
        assertThat(c.retryBackoffMin()).isEqualTo(StreamConfig.DEFAULT_RETRY_BACKOFF_MIN);
        assertThat(c.retryBackoffMax()).isEqualTo(StreamConfig.DEFAULT_RETRY_BACKOFF_MAX);
        assertThat(c.batchSize()).isEqualTo(StreamConfig.DEFAULT_BATCH_SIZE);
        assertThat(c.block()).isEqualTo(StreamConfig.DEFAULT_BLOCK);
        assertThat(c.workers()).isEqualTo(StreamConfig.DEFAULT_WORKERS);
        assertThat(c.reapAfter()).isEqualTo(StreamConfig.DEFAULT_REAP_AFTER);
        assertThat(c.groupStart()).isEqualTo("0");
        assertThat(c.consumerPrefix()).matches("[A-Za-z0-9_.-]+-\\d+");
    }

    @Test
    void aBadValueIsRefusedAtOnceNamingIt() {
        StreamConfig.Builder b = StreamConfig.builder("orders");
        assertThatThrownBy(() -> StreamConfig.builder("my orders")).hasMessageContaining("name");
        assertThatThrownBy(() -> b.group("a{b}")).hasMessageContaining("group");
        assertThatThrownBy(() -> b.maxDeliveries(0)).hasMessageContaining("maxDeliveries");
        assertThatThrownBy(() -> b.batchSize(0)).hasMessageContaining("batchSize");
        assertThatThrownBy(() -> b.block(Duration.ZERO)).hasMessageContaining("block");
        assertThatThrownBy(() -> b.maxLength(0)).hasMessageContaining("maxLength");
        assertThatThrownBy(() -> b.workers(0)).hasMessageContaining("workers");
        assertThatThrownBy(() -> b.groupStart("latest")).hasMessageContaining("groupStart");
        assertThatThrownBy(() -> b.visibilityTimeout(Duration.ofMillis(5))).hasMessageContaining("visibilityTimeout");
    }

    @Test
    void aRetryBackoffLongerThanTheVisibilityTimeoutIsRefused() {
        assertThatThrownBy(() -> StreamConfig.builder("orders").visibilityTimeout(Duration.ofSeconds(5))
                .retryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retryBackoff max");
    }

    @Test
    void reapingIsOffOrAtLeastTwiceTheVisibilityTimeout() {
        assertThatThrownBy(() -> StreamConfig.builder("orders").reapAfter(Duration.ofSeconds(40)).build())
                .hasMessageContaining("reapAfter");
        assertThat(StreamConfig.builder("orders").reapAfter(Duration.ZERO).build().reapAfter()).isZero();
    }

    @Test
    void theLengthCapHoldsWithAnAgeLimitAndTheLimitsAreChecked() {
        StreamConfig byAge = StreamConfig.builder("orders").maxAge(Duration.ofHours(1)).build();
        assertThat(byAge.maxAge()).isEqualTo(Duration.ofHours(1));
        assertThat(byAge.maxLength()).isEqualTo(StreamConfig.DEFAULT_MAX_LENGTH);
        StreamConfig both = byAge.toBuilder().maxLength(50).overflow(StreamConfig.Overflow.DROP_OLDEST)
                .maxEntryBytes(4096).durability(StreamConfig.Durability.REQUIRE_AOF).build();
        assertThat(both.maxAge()).isEqualTo(Duration.ofHours(1));
        assertThat(both.maxLength()).isEqualTo(50);
        assertThat(both.overflow()).isEqualTo(StreamConfig.Overflow.DROP_OLDEST);
        assertThat(both.maxEntryBytes()).isEqualTo(4096);
        assertThat(both.durability()).isEqualTo(StreamConfig.Durability.REQUIRE_AOF);
        StreamConfig defaults = StreamConfig.builder("orders").build();
        assertThat(defaults.overflow()).isEqualTo(StreamConfig.Overflow.REJECT);
        assertThat(defaults.maxEntryBytes()).isEqualTo(1 << 20);
        assertThat(defaults.durability()).isEqualTo(StreamConfig.Durability.WARN);
        assertThatThrownBy(() -> StreamConfig.builder("orders").maxEntryBytes(10))
                .hasMessageContaining("maxEntryBytes must be 64-536870912, was 10");
        assertThatThrownBy(() -> StreamConfig.builder("orders").overflow(null)).hasMessageContaining("overflow");
    }

    @Test
    void streamsReadTheMasterOnly() {
        assertThatThrownBy(() -> StreamConfig.builder("orders").readFrom(ReadFrom.REPLICA_PREFERRED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master only");
        assertThatThrownBy(() -> OnceConfig.builder("orders").readFrom(ReadFrom.REPLICA_PREFERRED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master only");
        StreamConfig.builder("orders").readFrom(ReadFrom.MASTER).build();
    }

    @Test
    void onceRemembersLongerThanItsLease() {
        assertThatThrownBy(() -> OnceConfig.builder("orders").leaseTtl(Duration.ofMinutes(5))
                .doneTtl(Duration.ofMinutes(1)).build()).hasMessageContaining("doneTtl");
        assertThat(OnceConfig.builder("orders").build().doneTtl()).isEqualTo(OnceConfig.DEFAULT_DONE_TTL);
    }

    @Test
    void aMessageKnowsWhetherItWasHandedOutBefore() {
        Message<String> first = new Message<>("orders", "1700000000123-0", "k", "p", 1);
        assertThat(first.redelivered()).isFalse();
        assertThat(first.addedAt().toEpochMilli()).isEqualTo(1700000000123L);
        assertThat(new Message<>("orders", "1-0", "k", "p", 3).redelivered()).isTrue();
    }
}
