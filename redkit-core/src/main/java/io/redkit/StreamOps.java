package io.redkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis stream commands a work queue needs, on the connection and profile of the {@link RedisOps} they came
 * from (a blocking read belongs on a dedicated connection: {@link Redkit#dedicated()}). XADD, XREADGROUP of new
 * entries and XAUTOCLAIM change state on every run and are never retried after an outcome that may have run.
 */
public interface StreamOps {

    /** An entry pending in a group: delivered, not yet acknowledged. */
    record Pending(String id, String consumer, Duration idle, long deliveries) {
    }

    /** What XAUTOCLAIM took over, and where the next call starts ({@code 0-0}: the whole PEL was scanned). */
    record Claimed(String nextStart, List<StreamEntry> entries) {
    }

    /**
     * A consumer group: its consumers, entries pending, the last id delivered, and the lag (entries not yet
     * delivered; empty when Redis cannot tell, e.g. after entries were deleted).
     */
    record Group(String name, long consumers, long pending, String lastDeliveredId, OptionalLong lag) {
    }

    /** A consumer of a group: its pending entries and how long since it last read. */
    record ConsumerInfo(String name, long pending, Duration idle) {
    }

    /** XADD with an automatic id: the id. Not idempotent: a retry after a timeout could add it twice. */
    String add(String stream, Map<String, byte[]> fields, StreamTrim trim);

    /** {@link #add} without blocking. */
    CompletableFuture<String> addAsync(String stream, Map<String, byte[]> fields, StreamTrim trim);

    /**
     * {@code XGROUP CREATE stream group startId MKSTREAM}: true when created, false when the group existed, so that
     * every worker may call it at start.
     */
    boolean createGroup(String stream, String group, String startId);

    /**
     * XREADGROUP: up to {@code count} entries for {@code consumer}, from {@code id} ({@code >}: never delivered
     * ones, which become pending for this consumer; {@code 0}: this consumer's own pending ones). Waits up to
     * {@code block} for new entries when there are none (zero: does not wait); the connection's timeout must be
     * longer than the block. Empty when nothing came.
     */
    List<StreamEntry> readGroup(String stream, String group, String consumer, String id, int count, Duration block);

    /** XACK: how many of the ids were pending and are now acknowledged. */
    long ack(String stream, String group, List<String> ids);

    /** {@link #ack} without blocking: acknowledgements of a batch travel together. */
    CompletableFuture<Long> ackAsync(String stream, String group, List<String> ids);

    /**
     * XAUTOCLAIM: takes over up to {@code count} entries pending longer than {@code minIdle}, from {@code start};
     * each one's delivery count goes up by one.
     */
    Claimed autoClaim(String stream, String group, String consumer, Duration minIdle, String start, int count);

    /** XPENDING (extended form): up to {@code count} pending entries from {@code start} to {@code end}, oldest first. */
    List<Pending> pending(String stream, String group, String start, String end, int count);

    /** How many entries are pending in the group (XPENDING summary). */
    long pendingCount(String stream, String group);

    /** XRANGE: up to {@code count} entries from {@code start} to {@code end} ({@code -} and {@code +} for the ends). */
    List<StreamEntry> range(String stream, String start, String end, int count);

    /** XLEN. */
    long length(String stream);

    /** XDEL: how many of the ids existed. */
    long delete(String stream, List<String> ids);

    /** XTRIM: how many entries were removed. */
    long trim(String stream, StreamTrim trim);

    /** XINFO GROUPS; empty when the stream does not exist. */
    List<Group> groups(String stream);

    /** XINFO CONSUMERS of a group. */
    List<ConsumerInfo> consumers(String stream, String group);

    /** XGROUP DELCONSUMER: how many entries were still pending for it (they are dropped from the PEL with it). */
    long deleteConsumer(String stream, String group, String consumer);
}
