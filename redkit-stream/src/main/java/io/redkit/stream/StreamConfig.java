package io.redkit.stream;

import java.time.Duration;

import io.redkit.ReadFrom;
import io.redkit.Validate;
import io.redkit.stream.internal.ConsumerNames;

/**
 * How one {@link StreamQueue} stores, hands out, retries and dead-letters its messages. Immutable; built by
 * {@link #builder(String)}, which validates each value as it is set and names the bad one. Every default is the
 * constant next to its accessor.
 */
public final class StreamConfig {

    /** Key namespace: the stream is {@code stream:{name}}, its dead letters {@code stream:{name}:dead}. */
    public static final String DEFAULT_NAMESPACE = "stream";
    /** The consumer group; services that each need every message use a group each. */
    public static final String DEFAULT_GROUP = "workers";
    /**
     * The most entries the stream holds. Entries every group has acknowledged are trimmed to make room; those some
     * group has not are work nobody has done and are never trimmed: a publish that would exceed the cap with them
     * is refused ({@link QueueFullException}) unless {@link Overflow#DROP_OLDEST} was chosen. Size it to the longest
     * backlog an outage of the consumers must absorb.
     */
    public static final long DEFAULT_MAX_LENGTH = 100_000;
    /** What a publish does when the stream is full of entries not yet acknowledged by every group. */
    public static final Overflow DEFAULT_OVERFLOW = Overflow.REJECT;
    /** The largest entry a publish accepts: its fields' names and values, the encoded payload included. */
    public static final int DEFAULT_MAX_ENTRY_BYTES = 1 << 20;
    /** What the queue does about a server without the append-only file. */
    public static final Durability DEFAULT_DURABILITY = Durability.WARN;
    /** About this many newest dead letters are kept. */
    public static final long DEFAULT_DEAD_LETTER_MAX_LENGTH = 10_000;
    /** A message handed to a handler this many times without success goes to the dead-letter stream. */
    public static final int DEFAULT_MAX_DELIVERIES = 5;
    /**
     * How long a message may stay with one consumer before any other may take it over (XAUTOCLAIM): longer than
     * a batch of the slowest handling, or a slow worker's messages are handled twice.
     */
    public static final Duration DEFAULT_VISIBILITY_TIMEOUT = Duration.ofSeconds(30);
    /** The first pause before a failed message is handed out again; doubled per delivery up to the maximum. */
    public static final Duration DEFAULT_RETRY_BACKOFF_MIN = Duration.ofMillis(500);
    /** The longest pause before a failed message is handed out again; below the visibility timeout. */
    public static final Duration DEFAULT_RETRY_BACKOFF_MAX = Duration.ofSeconds(10);
    /** The most entries one read takes (XREADGROUP COUNT); fewer while handlers are slow (see the README). */
    public static final int DEFAULT_BATCH_SIZE = 100;
    /** How long a read waits for new entries on the server (XREADGROUP BLOCK); also how soon a worker notices a stop. */
    public static final Duration DEFAULT_BLOCK = Duration.ofSeconds(1);
    /** How long a worker's command may wait for its reply; a blocking read may wait the block on top of it. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(1);
    /** Workers {@link StreamQueue#start} starts, each a thread with a dedicated connection of its own. */
    public static final int DEFAULT_WORKERS = 1;
    /** How often each worker looks for messages idle longer than the visibility timeout. */
    public static final Duration DEFAULT_CLAIM_INTERVAL = Duration.ofSeconds(1);
    /** A consumer idle this long is removed (its pending entries handed on first); zero turns it off. */
    public static final Duration DEFAULT_REAP_AFTER = Duration.ofHours(1);
    /** How often the lag, pending and length gauges are read from Redis (XINFO GROUPS, XLEN). */
    public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofSeconds(5);
    /** How long {@link StreamQueue#close()} lets handlers in flight finish. */
    public static final Duration DEFAULT_SHUTDOWN_DEADLINE = Duration.ofSeconds(10);
    /**
     * Where a new group starts: {@code 0}, the whole stream, so that nothing published before the first worker
     * started is skipped ({@code $} for new entries only).
     */
    public static final String DEFAULT_GROUP_START = "0";
    /** The longest duration accepted; longer is a mistake and could overflow a nanosecond deadline. */
    public static final Duration MAX_DURATION = Duration.ofDays(1);
    /** The most workers one start may ask for. */
    public static final int MAX_WORKERS = 256;

    /** What a publish does when the stream already holds {@link #maxLength()} entries some group has not acknowledged. */
    public enum Overflow {
        /** Refuse it with {@link QueueFullException}: nothing unread is ever lost (the default). */
        REJECT,
        /**
         * Add it and delete the oldest entries to make room, read or not; every deleted entry is counted
         * ({@code redkit.stream.dropped}) and logged at WARN. For data that is worthless once old (telemetry).
         */
        DROP_OLDEST
    }

    /**
     * What the queue does about a master that runs without the append-only file: a restart of it (a crash, a kill,
     * an OOM kill) loses every entry written since its last snapshot, acknowledged publishes included.
     */
    public enum Durability {
        /** Log a WARN once per queue naming the risk, and report it in {@link QueueStats#persistence()}. */
        WARN,
        /** Refuse to create the queue ({@link QueueDurabilityException}) unless every master has {@code appendonly yes}. */
        REQUIRE_AOF
    }

    /** A copy only this configuration holds, never changed once built: what keeps it immutable. */
    private final StreamSettings values;

    private StreamConfig(StreamSettings values) {
        this.values = values;
    }

    /** A builder for the stream {@code name} (1-64 of {@code [A-Za-z0-9_.-]}) with every other default. */
    public static Builder builder(String name) {
        return new Builder(new StreamSettings()).name(name);
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(values.copy());
    }

    /** The stream's name, its identity in keys and meter tags. */
    public String name() { return values.name; }

    /** Key namespace; default {@value #DEFAULT_NAMESPACE}. */
    public String namespace() { return values.namespace; }

    /** The consumer group; default {@value #DEFAULT_GROUP}. */
    public String group() { return values.group; }

    /** The most entries the stream holds; default {@value #DEFAULT_MAX_LENGTH} (see the constant). */
    public long maxLength() { return values.maxLength; }

    /** What a publish into a full stream does; default {@link Overflow#REJECT}. */
    public Overflow overflow() { return values.overflow; }

    /** The largest entry a publish accepts, in bytes; default 1 MiB. */
    public int maxEntryBytes() { return values.maxEntryBytes; }

    /** What the queue does about a server without the append-only file; default {@link Durability#WARN}. */
    public Durability durability() { return values.durability; }

    /**
     * Acknowledged entries older than this are trimmed every metrics interval (by the local wall clock), or null
     * to keep them until the stream reaches {@link #maxLength()}; entries some group has not acknowledged are kept
     * whatever their age.
     */
    public Duration maxAge() { return values.maxAge; }

    /** About how many dead letters are kept; default {@value #DEFAULT_DEAD_LETTER_MAX_LENGTH}. */
    public long deadLetterMaxLength() { return values.deadLetterMaxLength; }

    /** Handler deliveries before a message is dead-lettered; default {@value #DEFAULT_MAX_DELIVERIES}. */
    public int maxDeliveries() { return values.maxDeliveries; }

    /** How long a message stays with one consumer before others may claim it; default 30 s. */
    public Duration visibilityTimeout() { return values.visibilityTimeout; }

    /** First retry pause; default 500 ms. */
    public Duration retryBackoffMin() { return values.retryBackoffMin; }

    /** Longest retry pause; default 10 s. */
    public Duration retryBackoffMax() { return values.retryBackoffMax; }

    /** The most entries one read takes; default {@value #DEFAULT_BATCH_SIZE}. */
    public int batchSize() { return values.batchSize; }

    /** How long a read blocks on the server; default 1 s. */
    public Duration block() { return values.block; }

    /** How long a worker's command waits for its reply (a blocking read: the block more); default 1 s. */
    public Duration commandTimeout() { return values.commandTimeout; }

    /** Workers one {@link StreamQueue#start} starts; default {@value #DEFAULT_WORKERS}. */
    public int workers() { return values.workers; }

    /** Consumer names are {@code <prefix>-<n>}; default the host name and process id. */
    public String consumerPrefix() { return values.consumerPrefix; }

    /** How often each worker claims idle messages; default 1 s. */
    public Duration claimInterval() { return values.claimInterval; }

    /** Idle consumers older than this are removed; zero when off; default 1 h. */
    public Duration reapAfter() { return values.reapAfter; }

    /** How often the gauges are refreshed; default 5 s. */
    public Duration metricsInterval() { return values.metricsInterval; }

    /** How long close() lets handlers finish; default 10 s. */
    public Duration shutdownDeadline() { return values.shutdownDeadline; }

    /** Where a newly created group starts reading; default {@value #DEFAULT_GROUP_START}. */
    public String groupStart() { return values.groupStart; }

    @Override
    public String toString() {
        StreamSettings v = values;
        return "StreamConfig[" + v.namespace + ":{" + v.name + "}, group=" + v.group + ", "
                + "maxLength=" + v.maxLength + " (" + v.overflow + ")"
                + (v.maxAge != null ? ", maxAge=" + v.maxAge : "")
                + ", maxEntryBytes=" + v.maxEntryBytes + ", durability=" + v.durability + ", maxDeliveries="
                + v.maxDeliveries + ", visibility=" + v.visibilityTimeout + ", retry=" + v.retryBackoffMin + ".."
                + v.retryBackoffMax + ", batch=" + v.batchSize + ", block=" + v.block + ", workers=" + v.workers
                + ", consumers=" + v.consumerPrefix + "-n]";
    }

    /** Builds a {@link StreamConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private final StreamSettings values;

        private Builder(StreamSettings values) {
            this.values = values;
        }

        /** The stream's name: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder name(String value) {
            values.name = Validate.name("name", value, 64);
            return this;
        }

        /** Key namespace: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder namespace(String value) {
            values.namespace = Validate.name("namespace", value, 64);
            return this;
        }

        /** The consumer group: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder group(String value) {
            values.group = Validate.name("group", value, 64);
            return this;
        }

        /** The most entries the stream holds (at least 1); see {@link #DEFAULT_MAX_LENGTH}. */
        public Builder maxLength(long value) {
            values.maxLength = StreamSettings.atLeastOne("maxLength", value);
            return this;
        }

        /** What a publish into a full stream does: refuse it (default) or drop the oldest entries, counted. */
        public Builder overflow(Overflow value) {
            values.overflow = java.util.Objects.requireNonNull(value, "overflow");
            return this;
        }

        /** The largest entry a publish accepts: 64 bytes to 512 MiB (Redis's own limit for one value). */
        public Builder maxEntryBytes(int value) {
            values.maxEntryBytes = StreamSettings.within("maxEntryBytes", value, 64, 512 << 20);
            return this;
        }

        /** Warn about a server without the append-only file (default), or refuse to create the queue. */
        public Builder durability(Durability value) {
            values.durability = java.util.Objects.requireNonNull(value, "durability");
            return this;
        }

        /** Trim acknowledged entries older than {@code value} (1 s to 1 day); unacknowledged ones are kept. */
        public Builder maxAge(Duration value) {
            values.maxAge = Validate.within("maxAge", value, Duration.ofSeconds(1), MAX_DURATION);
            return this;
        }

        /** Keep about the newest {@code value} dead letters (at least 1). */
        public Builder deadLetterMaxLength(long value) {
            values.deadLetterMaxLength = StreamSettings.atLeastOne("deadLetterMaxLength", value);
            return this;
        }

        /** Deliveries before dead-lettering: 1-1000. */
        public Builder maxDeliveries(int value) {
            values.maxDeliveries = StreamSettings.within("maxDeliveries", value, 1, 1000);
            return this;
        }

        /** The visibility timeout: 100 ms to 1 day; above the retry backoff and the claim interval (checked in build()). */
        public Builder visibilityTimeout(Duration value) {
            values.visibilityTimeout =
                    Validate.within("visibilityTimeout", value, Duration.ofMillis(100), MAX_DURATION);
            return this;
        }

        /** Retry pauses: {@code 1 ms ≤ min ≤ max}, max below the visibility timeout (checked in build()). */
        public Builder retryBackoff(Duration min, Duration max) {
            Validate.within("retryBackoff min", min, Duration.ofMillis(1), MAX_DURATION);
            Validate.within("retryBackoff max", max, Duration.ofMillis(1), MAX_DURATION);
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("retryBackoff max (" + max + ") must not be below min (" + min + ")");
            }
            values.retryBackoffMin = min;
            values.retryBackoffMax = max;
            return this;
        }

        /** The most entries one read takes: 1-10000. */
        public Builder batchSize(int value) {
            values.batchSize = StreamSettings.within("batchSize", value, 1, 10_000);
            return this;
        }

        /** How long a read blocks on the server: 1 ms to 1 min. */
        public Builder block(Duration value) {
            values.block = Validate.within("block", value, Duration.ofMillis(1), Duration.ofMinutes(1));
            return this;
        }

        /** How long a worker's command waits for its reply: 10 ms to 1 min. */
        public Builder commandTimeout(Duration value) {
            values.commandTimeout =
                    Validate.within("commandTimeout", value, Duration.ofMillis(10), Duration.ofMinutes(1));
            return this;
        }

        /** Workers per {@link StreamQueue#start}: 1 to {@value #MAX_WORKERS}; each holds a dedicated connection. */
        public Builder workers(int value) {
            values.workers = StreamSettings.within("workers", value, 1, MAX_WORKERS);
            return this;
        }

        /**
         * Consumer names are {@code <value>-<n>}: 1-100 of {@code [A-Za-z0-9_.-]}. Give a name that survives a
         * restart (a StatefulSet pod name) to keep the set of consumers small; the default changes per process.
         */
        public Builder consumerPrefix(String value) {
            values.consumerPrefix = Validate.name("consumerPrefix", value, 100);
            return this;
        }

        /** How often each worker claims idle messages: 10 ms up to the visibility timeout (checked in build()). */
        public Builder claimInterval(Duration value) {
            values.claimInterval = Validate.within("claimInterval", value, Duration.ofMillis(10), MAX_DURATION);
            return this;
        }

        /** Remove consumers idle this long; zero turns it off, else at least twice the visibility timeout. */
        public Builder reapAfter(Duration value) {
            values.reapAfter = Validate.nonNegative("reapAfter", value, Duration.ofDays(30));
            return this;
        }

        /** How often the gauges are refreshed: 100 ms to 1 h. */
        public Builder metricsInterval(Duration value) {
            values.metricsInterval =
                    Validate.within("metricsInterval", value, Duration.ofMillis(100), Duration.ofHours(1));
            return this;
        }

        /** How long close() lets handlers finish: zero (stop at once) to 1 h. */
        public Builder shutdownDeadline(Duration value) {
            values.shutdownDeadline = Validate.nonNegative("shutdownDeadline", value, Duration.ofHours(1));
            return this;
        }

        /** Where a newly created group starts: {@code 0}, {@code $} or an entry id. */
        public Builder groupStart(String value) {
            if (value == null || !value.matches("0|\\$|\\d+-\\d+")) {
                throw new IllegalArgumentException("groupStart must be 0, $ or an entry id like 1700000000000-0, was '"
                        + value + "'");
            }
            values.groupStart = value;
            return this;
        }

        /**
         * Streams read and write the master only; anything else is refused here. A replica lags its master, so a
         * worker reading one could take a message another worker already acknowledged.
         *
         * @throws IllegalArgumentException for anything but {@link ReadFrom#MASTER}
         */
        public Builder readFrom(ReadFrom value) {
            Validate.masterOnly("streams", value, "a replica may hand out a message the master already acknowledged");
            return this;
        }

        /** Checks the values against each other and builds the configuration. */
        public StreamConfig build() {
            values.checkTogether();
            StreamSettings built = values.copy();
            if (built.consumerPrefix == null) {
                built.consumerPrefix = ConsumerNames.defaultPrefix();
            }
            return new StreamConfig(built);
        }
    }
}
