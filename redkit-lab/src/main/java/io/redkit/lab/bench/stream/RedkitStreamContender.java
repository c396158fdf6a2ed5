package io.redkit.lab.bench.stream;

import java.time.Duration;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.Workers;

/**
 * redkit's {@code StreamQueue}: {@code publishAsync} on the shared connection; one worker reading up to 100 entries
 * per XREADGROUP (block 100 ms) on a dedicated connection, the handler called per message, the batch's successes
 * acknowledged in one XACK after the handlers returned.
 */
final class RedkitStreamContender extends StreamContender {

    private Redkit redkit;
    private StreamQueue<BenchEvent> queue;
    private Workers workers;

    RedkitStreamContender() {
        super("redkit");
    }

    @Override
    void start(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-stream").build());
        queue = StreamQueue.create(redkit, StreamConfig.builder(id).batchSize(100).block(Duration.ofMillis(100))
                .maxLength(MAX_LENGTH).group(GROUP).reapAfter(Duration.ZERO).build(), BenchEvent.class);
        workers = queue.start(m -> handled(m.payload()));
    }

    @Override
    void produce(BenchEvent event) {
        track(queue.publishAsync(event));
    }

    /** The queue's key, known before it exists: the stream namespace and the queue's name (no escaping needed). */
    @Override
    String key() {
        return StreamConfig.DEFAULT_NAMESPACE + ":{" + id + "}";
    }

    @Override
    void stop() {
        if (workers != null) {
            workers.close(Duration.ofSeconds(1));
        }
        if (queue != null) {
            queue.close();
        }
        if (redkit != null) {
            redkit.close();
        }
    }
}
