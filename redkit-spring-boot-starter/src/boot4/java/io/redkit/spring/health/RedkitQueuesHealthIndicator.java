package io.redkit.spring.health;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.redkit.spring.RedkitQueues;
import io.redkit.spring.internal.HealthReport;

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
        return RedkitCacheHealthIndicator.health(HealthReport.queues(queues));
    }
}
