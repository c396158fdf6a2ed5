package io.redkit.stream;

import java.time.Duration;

import io.redkit.stream.StreamConfig.Durability;
import io.redkit.stream.StreamConfig.Overflow;

/**
 * The values of one {@link StreamConfig}, each starting at its default, and the checks on them. The builder fills
 * one; the built configuration keeps a copy of its own, so a builder set again never changes what it built.
 */
final class StreamSettings {

    String name;
    String namespace = StreamConfig.DEFAULT_NAMESPACE;
    String group = StreamConfig.DEFAULT_GROUP;
    long maxLength = StreamConfig.DEFAULT_MAX_LENGTH;
    Overflow overflow = StreamConfig.DEFAULT_OVERFLOW;
    int maxEntryBytes = StreamConfig.DEFAULT_MAX_ENTRY_BYTES;
    Durability durability = StreamConfig.DEFAULT_DURABILITY;
    Duration maxAge;
    long deadLetterMaxLength = StreamConfig.DEFAULT_DEAD_LETTER_MAX_LENGTH;
    int maxDeliveries = StreamConfig.DEFAULT_MAX_DELIVERIES;
    Duration visibilityTimeout = StreamConfig.DEFAULT_VISIBILITY_TIMEOUT;
    Duration retryBackoffMin = StreamConfig.DEFAULT_RETRY_BACKOFF_MIN;
    Duration retryBackoffMax = StreamConfig.DEFAULT_RETRY_BACKOFF_MAX;
    int batchSize = StreamConfig.DEFAULT_BATCH_SIZE;
    Duration block = StreamConfig.DEFAULT_BLOCK;
    Duration commandTimeout = StreamConfig.DEFAULT_COMMAND_TIMEOUT;
    int workers = StreamConfig.DEFAULT_WORKERS;
    String consumerPrefix;
    Duration claimInterval = StreamConfig.DEFAULT_CLAIM_INTERVAL;
    Duration reapAfter = StreamConfig.DEFAULT_REAP_AFTER;
    Duration metricsInterval = StreamConfig.DEFAULT_METRICS_INTERVAL;
    Duration shutdownDeadline = StreamConfig.DEFAULT_SHUTDOWN_DEADLINE;
    String groupStart = StreamConfig.DEFAULT_GROUP_START;

    /** A copy, so the builder and the configuration it built never share one. */
    StreamSettings copy() {
        StreamSettings copy = new StreamSettings();
        copy.name = name;
        copy.namespace = namespace;
        copy.group = group;
        copy.maxLength = maxLength;
        copy.overflow = overflow;
        copy.maxEntryBytes = maxEntryBytes;
        copy.durability = durability;
        copy.maxAge = maxAge;
        copy.deadLetterMaxLength = deadLetterMaxLength;
        copy.maxDeliveries = maxDeliveries;
        copy.visibilityTimeout = visibilityTimeout;
        copy.retryBackoffMin = retryBackoffMin;
        copy.retryBackoffMax = retryBackoffMax;
        copy.batchSize = batchSize;
        copy.block = block;
        copy.commandTimeout = commandTimeout;
        copy.workers = workers;
        copy.consumerPrefix = consumerPrefix;
        copy.claimInterval = claimInterval;
        copy.reapAfter = reapAfter;
        copy.metricsInterval = metricsInterval;
        copy.shutdownDeadline = shutdownDeadline;
        copy.groupStart = groupStart;
        return copy;
    }

    /** Checks the values against each other, naming both of a bad pair. */
    void checkTogether() {
        if (retryBackoffMax.compareTo(visibilityTimeout) >= 0) {
            throw new IllegalArgumentException("retryBackoff max (" + retryBackoffMax + ") must be below the"
                    + " visibilityTimeout (" + visibilityTimeout + "), or other workers claim a failed message"
                    + " before its own worker retries it");
        }
        if (claimInterval.compareTo(visibilityTimeout) > 0) {
            throw new IllegalArgumentException("claimInterval (" + claimInterval + ") must not exceed the"
                    + " visibilityTimeout (" + visibilityTimeout + ")");
        }
        if (!reapAfter.isZero() && reapAfter.compareTo(visibilityTimeout.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("reapAfter (" + reapAfter + ") must be zero (off) or at least twice"
                    + " the visibilityTimeout (" + visibilityTimeout + "), or a busy worker could be reaped");
        }
    }

    static int within(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " must be " + min + "-" + max + ", was " + value);
        }
        return value;
    }

    static long atLeastOne(String field, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, was " + value);
        }
        return value;
    }
}
