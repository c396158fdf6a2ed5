package io.redkit.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code redkit.queue.*}: settings of the stream queues that {@link RedkitQueues} builds, by queue name; a queue not
 * listed gets redkit-stream's defaults ({@code StreamConfig.DEFAULT_…}, written out here so that this class loads
 * without redkit-stream).
 */
public class RedkitQueueProperties {

    /** The queues, by name: the stream is stream:{name}. */
    private final Map<String, Spec> queues = new LinkedHashMap<>();

    public Map<String, Spec> getQueues() { return queues; }

    /** One queue. */
    public static class Spec {

        /** The consumer group. */
        private String group = "workers";

        /** Worker threads one start() runs, each on a dedicated connection of the pool. */
        private int workers = 1;

        /** About how many entries the stream keeps (XADD MAXLEN ~); older ones are trimmed, read or not. */
        private long maxLength = 100_000;

        /** Handler deliveries before a message goes to the dead-letter stream. */
        private int maxDeliveries = 5;

        /** How long a delivered message may stay unacknowledged before another worker claims it. */
        private Duration visibilityTimeout = Duration.ofSeconds(30);

        /** The most entries one read takes. */
        private int batchSize = 100;

        /** Consumer names' prefix; unset: host name and process id. */
        private String consumerPrefix;

        public String getGroup() { return group; }
        public void setGroup(String group) { this.group = group; }
        public int getWorkers() { return workers; }
        public void setWorkers(int workers) { this.workers = workers; }
        public long getMaxLength() { return maxLength; }
        public void setMaxLength(long maxLength) { this.maxLength = maxLength; }
        public int getMaxDeliveries() { return maxDeliveries; }
        public void setMaxDeliveries(int maxDeliveries) { this.maxDeliveries = maxDeliveries; }
        public Duration getVisibilityTimeout() { return visibilityTimeout; }
        public void setVisibilityTimeout(Duration visibilityTimeout) { this.visibilityTimeout = visibilityTimeout; }
        public int getBatchSize() { return batchSize; }
        public void setBatchSize(int batchSize) { this.batchSize = batchSize; }
        public String getConsumerPrefix() { return consumerPrefix; }
        public void setConsumerPrefix(String consumerPrefix) { this.consumerPrefix = consumerPrefix; }
    }
}
