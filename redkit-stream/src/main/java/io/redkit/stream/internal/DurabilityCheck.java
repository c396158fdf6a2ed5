package io.redkit.stream.internal;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisOps;
import io.redkit.RedkitException;
import io.redkit.stream.QueueDurabilityException;
import io.redkit.stream.QueueStats.Persistence;
import io.redkit.stream.StreamConfig;

/**
 * What the masters' configuration ({@code CONFIG GET appendonly appendfsync}) promises for a queue's entries
 * across a restart: read at start and with every refresh of the gauges; a WARN once when a master runs without
 * the append-only file, and a refusal to start under {@link StreamConfig.Durability#REQUIRE_AOF}.
 */
final class DurabilityCheck {

    private static final Logger log = LoggerFactory.getLogger(DurabilityCheck.class);

    private final String stream;
    private final StreamConfig.Durability policy;
    private volatile Persistence persistence = Persistence.UNKNOWN;
    private volatile boolean warned;

    DurabilityCheck(String stream, StreamConfig.Durability policy) {
        this.stream = stream;
        this.policy = policy;
    }

    Persistence persistence() {
        return persistence;
    }

    /** Reads the masters' settings; at start, fails under REQUIRE_AOF unless every master has the AOF on. */
    void check(RedisOps ops, boolean atStart) {
        Persistence now;
        RedkitException unreadable = null;
        try {
            now = weakest(ops.configGet("appendonly", "appendfsync"));
        } catch (RedkitException e) {
            now = Persistence.UNKNOWN;
            unreadable = e;
        }
        persistence = now;
        if (atStart && policy == StreamConfig.Durability.REQUIRE_AOF && (now == Persistence.NO_AOF
                || now == Persistence.UNKNOWN)) {
            throw new QueueDurabilityException("queue '" + stream + "' requires the append-only file"
                    + " (durability REQUIRE_AOF), but " + (now == Persistence.NO_AOF ? "a master runs with"
                    + " appendonly no: a restart of it would lose acknowledged publishes"
                    : "the masters' configuration cannot be read (" + unreadable + ")") + "; nothing was created",
                    unreadable);
        }
        if (now == Persistence.NO_AOF && !warned) {
            warned = true;
            log.warn("stream {}: a master runs with appendonly no; a restart of it (crash, kill, OOM kill) loses every"
                    + " entry written since its last snapshot, published and acknowledged ones included. Turn on"
                    + " appendonly (appendfsync everysec or always) for a queue that must keep its messages", stream);
        } else if (atStart && now == Persistence.UNKNOWN) {
            log.info("stream {}: cannot read the masters' persistence settings ({}); durability across a restart is"
                    + " not checked", stream, String.valueOf(unreadable));
        }
    }

    /** The weakest promise among the masters. */
    static Persistence weakest(Map<String, Map<String, String>> byMaster) {
        Persistence weakest = byMaster.isEmpty() ? Persistence.UNKNOWN : Persistence.AOF_ALWAYS;
        for (Map<String, String> values : byMaster.values()) {
            Persistence p = of(values.get("appendonly"), values.get("appendfsync"));
            if (p.ordinal() > weakest.ordinal()) {
                weakest = p;
            }
        }
        return weakest;
    }

    static Persistence of(String appendOnly, String fsync) {
        if (appendOnly == null) {
            return Persistence.UNKNOWN;
        }
        if (!appendOnly.equalsIgnoreCase("yes")) {
            return Persistence.NO_AOF;
        }
        if ("always".equalsIgnoreCase(fsync)) {
            return Persistence.AOF_ALWAYS;
        }
        return "no".equalsIgnoreCase(fsync) ? Persistence.AOF_NO_FSYNC : Persistence.AOF_EVERYSEC;
    }
}
