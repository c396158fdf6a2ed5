package io.redkit.stream;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;

/**
 * A worker JVM of {@link StreamFaultsContract}'s run with {@link Once}: three of them share a queue, two are killed
 * with SIGKILL. Each handling runs under {@code Once.forQueue(...).handler(...)}, and its work is a field of a
 * hash named by the message's key (and a counter the test polls): what survives the kills says which work ran,
 * and how often.
 */
public final class OnceWorkerProbe {

    private static final long WORK_NANOS = 2_000_000;

    private OnceWorkerProbe() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String name = args[1];
        String prefix = args[2];
        String record = args[3];
        Redkit redkit = Redkit.create(RedkitConfig.builder().url(url).name(prefix).build());
        StreamConfig config = StreamFaultsContract.faultSettings(StreamConfig.builder(name)).workers(2)
                .consumerPrefix(prefix).build();
        StreamQueue<Job> queue = StreamQueue.create(redkit, config, Job.class);
        Once once = Once.forQueue(redkit, queue);
        queue.start(once.handler(m -> {
            redkit.commands().hset(record, Map.of(m.key() + "#" + m.id() + "#" + System.nanoTime(),
                    String.valueOf(m.delivery()).getBytes(StandardCharsets.UTF_8)));
            redkit.commands().incr(record + ":count");
            LockSupport.parkNanos(WORK_NANOS); // the rest of the work: long enough that the kills land mid-run
        }));
        System.out.println("READY");
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
