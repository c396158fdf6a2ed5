package io.redkit.spring.health;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import io.redkit.spring.RedkitQueues;
import io.redkit.stream.StreamQueue;

/**
 * Health of the queues' workers in this process: DOWN when a queue has workers started and none running (its
 * messages wait for another process), {@link RedkitCacheHealthIndicator#DEGRADED} while fewer run than were started
 * (one restarts after a failure it did not survive), UP otherwise, with each queue's counts and how its masters
 * keep it across a restart ({@code NO_AOF}: a crash loses what was published since the last snapshot; the queue
 * logs a WARN too). Reads no Redis: the backlog is on the queue's gauges, the persistence as last read.
 */
public final class RedkitQueuesHealthIndicator implements HealthIndicator {

    private final RedkitQueues queues;

    /** The health of the queues {@code queues} built. */
    public RedkitQueuesHealthIndicator(RedkitQueues queues) {
        this.queues = queues;
    }

    @Override
    public Health health() {
        Status status = Status.UP;
        Map<String, Object> details = new LinkedHashMap<>();
        for (Map.Entry<String, StreamQueue<?>> q : queues.built().entrySet()) {
            StreamQueue.WorkerCount count = q.getValue().workerCount();
            details.put(q.getKey(), Map.of("workers", count.started(), "running", count.running(), "persistence",
                    q.getValue().persistence().name()));
            if (count.started() > 0 && count.running() == 0) {
                status = Status.DOWN;
            } else if (count.degraded() && status != Status.DOWN) {
                status = RedkitCacheHealthIndicator.DEGRADED;
            }
        }
        return Health.status(status).withDetails(details).build();
    }
}
