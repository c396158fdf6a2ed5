package io.redkit.stream;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;

/**
 * A worker in a JVM of its own, run by {@link StreamFaultsContract} and killed there with SIGKILL. Handles with
 * one entry per read and records each handling in Redis (a hash field {@code <id>#<n>} holding the delivery
 * count) before anything else, so that what it did survives it. Prints {@code READY} once its worker runs, and
 * {@code STUCK <id>} when its {@code stuckAfter}-th handling has been recorded, after which that handler never
 * returns: the process is then killed in the middle of a message it has handled and not acknowledged.
 */
public final class StreamWorkerProbe {

    private StreamWorkerProbe() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String name = args[1];
        String prefix = args[2];
        int stuckAfter = Integer.parseInt(args[3]);
        String record = args[4];
        CountDownLatch never = new CountDownLatch(1);
        Redkit redkit = Redkit.create(RedkitConfig.builder().url(url).name("probe")
                .commandTimeout(Duration.ofSeconds(5)).build());
        StreamConfig.Builder config = StreamFaultsContract.faultSettings(StreamConfig.builder(name));
        StreamQueue<Job> queue = StreamQueue.create(redkit, config.batchSize(1).workers(1).consumerPrefix(prefix)
                .build(), Job.class);
        AtomicInteger handled = new AtomicInteger();
        queue.start(m -> {
            int n = handled.incrementAndGet();
            redkit.commands().hset(record, Map.of(m.id() + "#" + n,
                    String.valueOf(m.delivery()).getBytes(StandardCharsets.UTF_8)));
            if (n == stuckAfter) {
                System.out.println("STUCK " + m.id());
                System.out.flush();
                never.await();
            }
        });
        System.out.println("READY");
        System.out.flush();
        never.await();
    }
}
