package io.redkit.session.internal;

import java.nio.charset.StandardCharsets;

import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.session.SessionConfig;

/**
 * How long sessions stored by an earlier release under their raw id may still be alive: one absolute lifetime
 * after the first store of the namespace that looked, which a marker key remembers ({@code SET NX} of that instant;
 * it expires after {@link SessionConfig#MAX_LIFETIME}, long after the last such session ended). Read once per
 * store, on its first miss; nothing at all when {@link SessionConfig#upgradeRawIdKeys()} is off.
 */
final class RawIdUpgrade {

    private static final long UNKNOWN = Long.MIN_VALUE;

    private final boolean enabled;
    private final RedisOps ops;
    private final Guard guard;
    private final String marker;
    private final long lifetimeMillis;
    private volatile long until = UNKNOWN;

    RawIdUpgrade(SessionConfig config, RedisOps ops, Guard guard) {
        this.enabled = config.upgradeRawIdKeys();
        this.ops = ops;
        this.guard = guard;
        this.marker = KeySchema.of(config.namespace() + ".upgrade").key("since");
        this.lifetimeMillis = config.absoluteLifetime().toMillis();
    }

    /** Whether a session under a raw-id key may still be alive at {@code now} (epoch milliseconds). */
    boolean open(long now) {
        if (!enabled) {
            return false;
        }
        long u = until;
        if (u == UNKNOWN) {
            u = guard.run("read the upgrade marker", marker, () -> since(now)) + lifetimeMillis;
            until = u;
        }
        return now < u;
    }

    private long since(long now) {
        if (ops.setIfAbsent(marker, Long.toString(now).getBytes(StandardCharsets.US_ASCII),
                SessionConfig.MAX_LIFETIME)) {
            return now;
        }
        try {
            return ops.getString(marker).map(Long::parseLong).orElse(now);
        } catch (NumberFormatException e) {
            return now; // not ours to read: the window starts now, which only costs looks
        }
    }
}
