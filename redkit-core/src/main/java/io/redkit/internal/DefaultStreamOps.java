package io.redkit.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import io.redkit.Idempotency;
import io.redkit.RedisCommandException;
import io.redkit.StreamEntry;
import io.redkit.StreamOps;
import io.redkit.StreamTrim;

/** {@link StreamOps} over one {@link CommandExecutor}: each method names its command and its idempotency. */
final class DefaultStreamOps implements StreamOps {

    private final CommandExecutor executor;

    DefaultStreamOps(CommandExecutor executor) {
        this.executor = executor;
    }

    @Override
    public String add(String stream, Map<String, byte[]> fields, StreamTrim trim) {
        XAddArgs args = addArgs(stream, fields, trim);
        Map<String, byte[]> body = new LinkedHashMap<>(fields);
        return executor.execute("XADD", Idempotency.NON_IDEMPOTENT, c -> c.xadd(stream, args, body));
    }

    @Override
    public CompletableFuture<String> addAsync(String stream, Map<String, byte[]> fields, StreamTrim trim) {
        XAddArgs args = addArgs(stream, fields, trim);
        Map<String, byte[]> body = new LinkedHashMap<>(fields);
        return executor.executeAsync("XADD", Idempotency.NON_IDEMPOTENT, c -> c.xadd(stream, args, body));
    }

    private static XAddArgs addArgs(String stream, Map<String, byte[]> fields, StreamTrim trim) {
        CommandArguments.requireKey(stream);
        if (Objects.requireNonNull(fields, "fields").isEmpty()) {
            throw new IllegalArgumentException("an entry needs at least one field");
        }
        XAddArgs args = new XAddArgs();
        Objects.requireNonNull(trim, "trim");
        if (trim.maxLength() > 0) {
            args.maxlen(trim.maxLength()).approximateTrimming();
        } else if (trim.minId() != null) {
            args.minId(trim.minId()).approximateTrimming();
        }
        return args;
    }

    @Override
    public boolean createGroup(String stream, String group, String startId) {
        CommandArguments.requireKey(stream);
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(startId, "startId");
        try {
            executor.execute("XGROUP CREATE", Idempotency.IDEMPOTENT, c -> c.xgroupCreate(
                    XReadArgs.StreamOffset.from(stream, startId), group, XGroupCreateArgs.Builder.mkstream()));
            return true;
        } catch (RedisCommandException e) {
            if ("BUSYGROUP".equals(e.errorCode())) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public List<StreamEntry> readGroup(String stream, String group, String consumer, String id, int count,
            Duration block) {
        CommandArguments.requireKey(stream);
        Objects.requireNonNull(id, "id");
        requireCount(count);
        XReadArgs args = XReadArgs.Builder.count(count);
        if (!Objects.requireNonNull(block, "block").isZero()) {
            args.block(block);
        }
        Consumer<String> who = Consumer.from(Objects.requireNonNull(group, "group"),
                Objects.requireNonNull(consumer, "consumer"));
        // Reading new entries (">") moves them into this consumer's PEL: a second run would take more.
        Idempotency idempotency = ">".equals(id) ? Idempotency.NON_IDEMPOTENT : Idempotency.IDEMPOTENT;
        List<StreamMessage<String, byte[]>> messages = executor.execute("XREADGROUP", idempotency,
                c -> c.xreadgroup(who, args, XReadArgs.StreamOffset.from(stream, id)));
        return entries(messages);
    }

    @Override
    public long ack(String stream, String group, List<String> ids) {
        String[] array = ids(stream, group, ids);
        return executor.execute("XACK", Idempotency.IDEMPOTENT, c -> c.xack(stream, group, array));
    }

    @Override
    public CompletableFuture<Long> ackAsync(String stream, String group, List<String> ids) {
        String[] array = ids(stream, group, ids);
        return executor.executeAsync("XACK", Idempotency.IDEMPOTENT, c -> c.xack(stream, group, array));
    }

    @Override
    public Claimed autoClaim(String stream, String group, String consumer, Duration minIdle, String start,
            int count) {
        CommandArguments.requireKey(stream);
        requireCount(count);
        XAutoClaimArgs<String> args = XAutoClaimArgs.Builder
                .xautoclaim(Consumer.from(Objects.requireNonNull(group, "group"),
                        Objects.requireNonNull(consumer, "consumer")), Objects.requireNonNull(minIdle, "minIdle"),
                        Objects.requireNonNull(start, "start"))
                .count(count);
        ClaimedMessages<String, byte[]> claimed = executor.execute("XAUTOCLAIM", Idempotency.NON_IDEMPOTENT,
                c -> c.xautoclaim(stream, args));
        return new Claimed(claimed.getId(), entries(claimed.getMessages()));
    }

    @Override
    public List<Pending> pending(String stream, String group, String start, String end, int count) {
        CommandArguments.requireKey(stream);
        Objects.requireNonNull(group, "group");
        requireCount(count);
        Range<String> range = Range.create(Objects.requireNonNull(start, "start"), Objects.requireNonNull(end, "end"));
        List<PendingMessage> messages = executor.execute("XPENDING", Idempotency.IDEMPOTENT,
                c -> c.xpending(stream, group, range, Limit.from(count)));
        List<Pending> result = new ArrayList<>(messages.size());
        for (PendingMessage m : messages) {
            result.add(new Pending(m.getId(), m.getConsumer(), m.getSinceLastDelivery(), m.getRedeliveryCount()));
        }
        return result;
    }

    @Override
    public long pendingCount(String stream, String group) {
        CommandArguments.requireKey(stream);
        Objects.requireNonNull(group, "group");
        PendingMessages summary = executor.execute("XPENDING", Idempotency.IDEMPOTENT, c -> c.xpending(stream, group));
        return summary.getCount();
    }

    @Override
    public List<StreamEntry> range(String stream, String start, String end, int count) {
        CommandArguments.requireKey(stream);
        requireCount(count);
        Range<String> range = Range.create(Objects.requireNonNull(start, "start"), Objects.requireNonNull(end, "end"));
        return entries(executor.execute("XRANGE", Idempotency.IDEMPOTENT,
                c -> c.xrange(stream, range, Limit.from(count))));
    }

    @Override
    public long length(String stream) {
        CommandArguments.requireKey(stream);
        return executor.execute("XLEN", Idempotency.IDEMPOTENT, c -> c.xlen(stream));
    }

    @Override
    public long delete(String stream, List<String> ids) {
        CommandArguments.requireKey(stream);
        String[] array = nonEmpty(ids);
        return executor.execute("XDEL", Idempotency.IDEMPOTENT, c -> c.xdel(stream, array));
    }

    @Override
    public long trim(String stream, StreamTrim trim) {
        CommandArguments.requireKey(stream);
        if (!Objects.requireNonNull(trim, "trim").trims()) {
            throw new IllegalArgumentException("StreamTrim.NONE trims nothing");
        }
        XTrimArgs args = trim.maxLength() > 0 ? XTrimArgs.Builder.maxlen(trim.maxLength()).approximateTrimming()
                : XTrimArgs.Builder.minId(trim.minId()).approximateTrimming();
        return executor.execute("XTRIM", Idempotency.IDEMPOTENT, c -> c.xtrim(stream, args));
    }

    @Override
    public List<Group> groups(String stream) {
        CommandArguments.requireKey(stream);
        List<Object> reply;
        try {
            reply = executor.execute("XINFO GROUPS", Idempotency.IDEMPOTENT, c -> c.xinfoGroups(stream));
        } catch (RedisCommandException e) {
            if (e.getMessage().contains("no such key")) {
                return List.of();
            }
            throw e;
        }
        List<Group> groups = new ArrayList<>(reply.size());
        for (Object item : reply) {
            Map<String, Object> g = fields(item);
            Object lag = g.get("lag");
            groups.add(new Group(text(g.get("name")), number(g.get("consumers")), number(g.get("pending")),
                    text(g.get("last-delivered-id")), lag instanceof Long l ? OptionalLong.of(l) : OptionalLong.empty()));
        }
        return groups;
    }

    @Override
    public List<ConsumerInfo> consumers(String stream, String group) {
        CommandArguments.requireKey(stream);
        Objects.requireNonNull(group, "group");
        List<Object> reply = executor.execute("XINFO CONSUMERS", Idempotency.IDEMPOTENT,
                c -> c.xinfoConsumers(stream, group));
        List<ConsumerInfo> consumers = new ArrayList<>(reply.size());
        for (Object item : reply) {
            Map<String, Object> f = fields(item);
            consumers.add(new ConsumerInfo(text(f.get("name")), number(f.get("pending")),
                    Duration.ofMillis(number(f.get("idle")))));
        }
        return consumers;
    }

    @Override
    public long deleteConsumer(String stream, String group, String consumer) {
        CommandArguments.requireKey(stream);
        Consumer<String> who = Consumer.from(Objects.requireNonNull(group, "group"),
                Objects.requireNonNull(consumer, "consumer"));
        return executor.execute("XGROUP DELCONSUMER", Idempotency.IDEMPOTENT, c -> c.xgroupDelconsumer(stream, who));
    }

    private static List<StreamEntry> entries(List<StreamMessage<String, byte[]>> messages) {
        if (messages == null || messages.isEmpty()) {
            return List.of();
        }
        List<StreamEntry> entries = new ArrayList<>(messages.size());
        for (StreamMessage<String, byte[]> m : messages) {
            // An entry deleted while pending comes back with no body; it has nothing left to hand out.
            Map<String, byte[]> body = m.getBody() == null ? Map.of() : m.getBody();
            entries.add(new StreamEntry(m.getId(), body));
        }
        return entries;
    }

    /** An XINFO reply item: alternating field names and values. */
    private static Map<String, Object> fields(Object item) {
        Map<String, Object> map = new HashMap<>();
        if (item instanceof List<?> list) {
            for (int i = 0; i + 1 < list.size(); i += 2) {
                map.put(text(list.get(i)), list.get(i + 1));
            }
        }
        return map;
    }

    private static String text(Object value) {
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return value == null ? null : value.toString();
    }

    private static long number(Object value) {
        if (value instanceof Long l) {
            return l;
        }
        return value == null ? 0 : Long.parseLong(text(value));
    }

    private static String[] ids(String stream, String group, List<String> ids) {
        CommandArguments.requireKey(stream);
        Objects.requireNonNull(group, "group");
        return nonEmpty(ids);
    }

    private static String[] nonEmpty(List<String> ids) {
        if (Objects.requireNonNull(ids, "ids").isEmpty()) {
            throw new IllegalArgumentException("at least one id is required");
        }
        return ids.toArray(new String[0]);
    }

    private static void requireCount(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
    }
}
