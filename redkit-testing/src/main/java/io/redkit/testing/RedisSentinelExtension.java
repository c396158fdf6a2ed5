package io.redkit.testing;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension running one {@link RedisSentinelGroup}: per test class from a static
 * {@code @RegisterExtension} field, per test method from an instance field.
 *
 * <p>After each test, paused processes are resumed, killed ones restarted (a former master rejoins as
 * a replica of the current one), and the extension waits until the group is stable again.
 */
public final class RedisSentinelExtension extends ScopedExtension<RedisSentinelGroup> {

    private final RedisSentinelGroup.Builder builder;

    private RedisSentinelExtension(RedisSentinelGroup.Builder builder) {
        this.builder = builder;
    }

    /** Returns an extension for the default group: 1 master, 1 replica, 3 sentinels, master name {@code redkit}. */
    public static RedisSentinelExtension create() {
        return new RedisSentinelExtension(RedisSentinelGroup.builder());
    }

    /** Returns an extension that starts groups from this builder. */
    public static RedisSentinelExtension from(RedisSentinelGroup.Builder builder) {
        return new RedisSentinelExtension(Objects.requireNonNull(builder, "builder"));
    }

    @Override
    RedisSentinelGroup startResource(ExtensionContext context) {
        return builder.start();
    }

    @Override
    void heal(RedisSentinelGroup group) {
        group.heal();
    }

    /** Returns the running group. */
    public RedisSentinelGroup group() {
        return resource();
    }

    /** Returns the Sentinel URI, {@code redis-sentinel://...#<masterName>}. */
    public String url() {
        return group().url();
    }

    /** Returns the monitored master name. */
    public String masterName() {
        return group().masterName();
    }

    /** Returns the current master. */
    public RedisServer master() {
        return group().master();
    }

    /** Returns the current replicas. */
    public List<RedisServer> replicas() {
        return group().replicas();
    }

    /** Returns the sentinels. */
    public List<RedisServer> sentinels() {
        return group().sentinels();
    }

    /** Forces a failover and waits for the new master. */
    public void failover() {
        group().failover();
    }

    /** Waits until a master other than {@code old} is promoted; returns it. */
    public RedisServer awaitNewMaster(RedisServer old, Duration timeout) {
        return group().awaitNewMaster(old, timeout);
    }
}
