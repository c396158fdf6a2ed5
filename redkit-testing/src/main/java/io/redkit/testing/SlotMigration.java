package io.redkit.testing;

import io.redkit.testing.internal.Credentials;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Moves one hash slot between masters the way redis-cli --cluster reshard does, key batch by key batch. */
final class SlotMigration {

    private static final int KEY_BATCH = 100;
    private static final Duration MIGRATE_TIMEOUT = Duration.ofSeconds(10);
    private static final String MIGRATE_TIMEOUT_MILLIS = "5000";

    private SlotMigration() {
    }

    /** Marks the slot importing/migrating, MIGRATEs its keys, then assigns it to the target on every master. */
    static void migrate(int slot, RedisServer source, RedisServer target, List<RedisServer> masters) {
        String slotArg = String.valueOf(slot);
        String sourceId = myId(source);
        String targetId = myId(target);
        target.call(ClusterChecks.QUERY_TIMEOUT, false, "CLUSTER", "SETSLOT", slotArg, "IMPORTING", sourceId);
        source.call(ClusterChecks.QUERY_TIMEOUT, false, "CLUSTER", "SETSLOT", slotArg, "MIGRATING", targetId);
        while (true) {
            List<?> keys = (List<?>) source.call(ClusterChecks.QUERY_TIMEOUT, true, "CLUSTER", "GETKEYSINSLOT", slotArg, String.valueOf(KEY_BATCH));
            if (keys.isEmpty()) {
                break;
            }
            source.call(MIGRATE_TIMEOUT, false, migrateCommand(target, keys).toArray());
        }
        // Target first, then source, as the Redis docs advise: the source stops redirecting with ASK only after the target owns the slot.
        List<RedisServer> order = new ArrayList<>(List.of(target, source));
        masters.stream().filter(m -> m != target && m != source && m.isHealthy()).forEach(order::add);
        for (RedisServer master : order) {
            master.call(ClusterChecks.QUERY_TIMEOUT, false, "CLUSTER", "SETSLOT", slotArg, "NODE", targetId);
        }
    }

    private static List<Object> migrateCommand(RedisServer target, List<?> keys) {
        List<Object> command = new ArrayList<>(List.of("MIGRATE", RedisServer.HOST, String.valueOf(target.port()), new byte[0], "0",
                MIGRATE_TIMEOUT_MILLIS, "REPLACE"));
        Credentials auth = target.credentials();
        if (auth != null) {
            command.add(auth.user() == null ? "AUTH" : "AUTH2");
            if (auth.user() != null) {
                command.add(auth.user());
            }
            command.add(auth.password());
        }
        command.add("KEYS");
        command.addAll(keys);
        return command;
    }

    private static String myId(RedisServer node) {
        return (String) node.call(ClusterChecks.QUERY_TIMEOUT, false, "CLUSTER", "MYID");
    }
}
