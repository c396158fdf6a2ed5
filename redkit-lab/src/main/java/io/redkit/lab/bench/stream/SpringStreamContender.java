package io.redkit.lab.bench.stream;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.data.redis.connection.RedisStreamCommands.TrimOptions;
import org.springframework.data.redis.connection.RedisStreamCommands.XAddOptions;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.stream.StreamMessageListenerContainer;
import org.springframework.data.redis.stream.StreamMessageListenerContainer.StreamMessageListenerContainerOptions;
import org.springframework.data.redis.stream.Subscription;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.SpringFactories;

/**
 * Spring Data Redis as its reference documentation shows it: a {@code StreamMessageListenerContainer} on a
 * {@code LettuceConnectionFactory} (poll timeout 100 ms, as in the documentation's example; every other option at
 * its default), the listener acknowledging each message with {@code StreamOperations.acknowledge(group, record)};
 * produced with {@code opsForStream().add(record, XAddOptions.trim(TrimOptions.maxLen(…).approximate()))} (Spring's template has no async add).
 */
final class SpringStreamContender extends StreamContender {

    private final String key = key();
    private LettuceConnectionFactory factory;
    private StringRedisTemplate template;
    private StreamMessageListenerContainer<String, MapRecord<String, String, String>> container;
    private Subscription subscription;

    SpringStreamContender() {
        super("spring");
    }

    @Override
    void start(BenchEnv env) {
        createGroup(env, key);
        factory = SpringFactories.started(env);
        template = new StringRedisTemplate(factory);
        StreamMessageListenerContainerOptions<String, MapRecord<String, String, String>> options =
                StreamMessageListenerContainerOptions.builder().pollTimeout(Duration.ofMillis(100)).build();
        container = StreamMessageListenerContainer.create(factory, options);
        subscription = container.receive(Consumer.from(GROUP, "spring"), StreamOffset.create(key, ReadOffset.lastConsumed()),
                message -> {
                    BenchEvent event = BenchEvent.parse(message.getValue().get("d"));
                    template.opsForStream().acknowledge(GROUP, message);
                    handled(event);
                });
        container.start();
    }

    @Override
    void produce(BenchEvent event) {
        template.opsForStream().add(MapRecord.create(key, event.fields()),
                XAddOptions.trim(TrimOptions.maxLen(MAX_LENGTH).approximate()));
    }

    @Override
    void stop() {
        if (container != null) {
            container.stop();
            // The poll task ends after its current read: waiting for it keeps it off a closed connection.
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (subscription != null && subscription.isActive() && System.nanoTime() < end) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        if (factory != null) {
            factory.destroy();
        }
    }
}
