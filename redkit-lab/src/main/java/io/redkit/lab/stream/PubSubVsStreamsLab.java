package io.redkit.lab.stream;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.Target;
import io.redkit.stream.Signals;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.Workers;

/**
 * {@code lab pubsub-vs-streams}: the seeds' question, "what happens to a message when its receiver is not
 * there?", as a run. One publisher sends the same numbered events at a steady rate to a pub/sub channel and to a
 * stream; the receiving side goes away for a while in the middle (unsubscribes, stops its worker) and comes back.
 * Pub/sub loses what was published meanwhile; the stream keeps it for the worker that comes back.
 */
@Command(name = "pubsub-vs-streams", mixinStandardHelpOptions = true,
        description = "Counts what a receiver that is away for a while loses through pub/sub and through a stream.")
public final class PubSubVsStreamsLab implements Callable<Integer> {

    @Mixin
    LabOptions options;

    @Option(names = "--messages", description = "events published (default ${DEFAULT-VALUE})")
    int messages = 600;

    @Option(names = "--rate", description = "events per second (default ${DEFAULT-VALUE})")
    int rate = 100;

    @Option(names = "--offline-ms", description = "how long the receiver is away (default ${DEFAULT-VALUE})")
    long offlineMs = 2000;

    @Spec
    CommandSpec spec;

    /** The event both channels carry. */
    public record Event(int seq) {
    }

    /** The report: DESIGN §11 fields. */
    public record Report(String target, int published, long offlineMs, int offlineFrom, int offlineTo, Side pubsub,
            Side streams, List<String> timeline) {
    }

    /** What one receiver got. */
    public record Side(int received, int lost, int duplicates) {
    }

    @Override
    public Integer call() throws Exception {
        if (messages < 1 || rate < 1 || offlineMs < 1) {
            throw new IllegalArgumentException("--messages, --rate and --offline-ms must be at least 1");
        }
        Report report;
        try (Target target = Target.of(options.redisUrl)) {
            report = run(target);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            Output.table(out, "lab pubsub-vs-streams — " + report.target() + "; " + messages + " events at " + rate
                    + "/s, the receiver away for " + offlineMs + " ms (events " + report.offlineFrom() + "–"
                    + report.offlineTo() + ")", new String[] {"channel", "published", "received", "lost",
                        "duplicates"}, new String[][] {
                        row("pub/sub (Signals)", report.published(), report.pubsub()),
                        row("stream (StreamQueue)", report.published(), report.streams()),
                    });
            report.timeline().forEach(out::println);
        }
        out.flush();
        return 0;
    }

    private static String[] row(String name, int published, Side side) {
        return new String[] {name, String.valueOf(published), String.valueOf(side.received()),
            String.valueOf(side.lost()), String.valueOf(side.duplicates())};
    }

    private Report run(Target target) throws Exception {
        String name = "lab-" + Long.toString(System.nanoTime(), 36);
        StreamConfig config = StreamConfig.builder(name).consumerPrefix("lab").block(Duration.ofMillis(100))
                .claimInterval(Duration.ofMillis(200)).reapAfter(Duration.ZERO).build();
        List<String> timeline = new ArrayList<>();
        Set<Integer> viaPubSub = ConcurrentHashMap.newKeySet();
        Set<Integer> viaStream = ConcurrentHashMap.newKeySet();
        AtomicInteger pubSubCalls = new AtomicInteger();
        AtomicInteger streamCalls = new AtomicInteger();
        long offlineNanos = TimeUnit.MILLISECONDS.toNanos(offlineMs);
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        int offlineFrom = (int) Math.max(1, (messages - offlineNanos / periodNanos) / 2);
        int offlineTo = offlineFrom;
        try (Redkit publisher = Redkit.create(RedkitConfig.builder().url(target.url()).name("lab-publisher").build());
                Redkit receiver = Redkit.create(RedkitConfig.builder().url(target.url()).name("lab-receiver").build());
                Signals<Event> outSignals = Signals.create(publisher, Event.class);
                Signals<Event> inSignals = Signals.create(receiver, Event.class);
                StreamQueue<Event> outQueue = StreamQueue.create(publisher, config, Event.class);
                StreamQueue<Event> inQueue = StreamQueue.create(receiver, config, Event.class)) {
            Signals.Subscription subscription = inSignals.subscribe(name, (ch, e) -> {
                pubSubCalls.incrementAndGet();
                viaPubSub.add(e.seq());
            });
            Workers workers = inQueue.start(m -> {
                streamCalls.incrementAndGet();
                viaStream.add(m.payload().seq());
            });
            long start = System.nanoTime();
            long awayUntil = Long.MAX_VALUE;
            for (int seq = 0; seq < messages; seq++) {
                LockSupport.parkNanos(start + seq * periodNanos - System.nanoTime()); // the steady rate
                long now = System.nanoTime();
                if (seq == offlineFrom) {
                    subscription.close();
                    workers.close(Duration.ofSeconds(1));
                    awayUntil = now + offlineNanos;
                    timeline.add(String.format(Locale.ROOT, "%6d ms  receiver goes away (unsubscribed, worker"
                            + " stopped) before event %d", millis(now - start), seq));
                } else if (now >= awayUntil) {
                    subscription = inSignals.subscribe(name, (ch, e) -> {
                        pubSubCalls.incrementAndGet();
                        viaPubSub.add(e.seq());
                    });
                    workers = inQueue.start(m -> {
                        streamCalls.incrementAndGet();
                        viaStream.add(m.payload().seq());
                    });
                    awayUntil = Long.MAX_VALUE;
                    offlineTo = seq - 1;
                    timeline.add(String.format(Locale.ROOT, "%6d ms  receiver is back before event %d", millis(now
                            - start), seq));
                }
                outSignals.publish(name, new Event(seq));
                outQueue.publish(new Event(seq));
            }
            timeline.add(String.format(Locale.ROOT, "%6d ms  all %d events published", millis(System.nanoTime()
                    - start), messages));
            awaitStream(viaStream);
            timeline.add(String.format(Locale.ROOT, "%6d ms  the stream's worker has all it will get: %d",
                    millis(System.nanoTime() - start), viaStream.size()));
            subscription.close();
            workers.close(Duration.ofSeconds(1));
        }
        return new Report(target.describe(), messages, offlineMs, offlineFrom, offlineTo,
                new Side(viaPubSub.size(), messages - viaPubSub.size(), pubSubCalls.get() - viaPubSub.size()),
                new Side(viaStream.size(), messages - viaStream.size(), streamCalls.get() - viaStream.size()),
                timeline);
    }

    /** Until the worker has every event, or nothing new came for two seconds. */
    private void awaitStream(Set<Integer> received) {
        int last = -1;
        long quietSince = System.nanoTime();
        while (received.size() < messages && System.nanoTime() - quietSince < TimeUnit.SECONDS.toNanos(2)) {
            if (received.size() != last) {
                last = received.size();
                quietSince = System.nanoTime();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        // A pub/sub message in flight when the last event was published arrives within milliseconds.
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
