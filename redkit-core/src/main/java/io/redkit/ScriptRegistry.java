package io.redkit;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The Lua scripts a client keeps loaded on every server it talks to, so that their first call is one
 * {@code EVALSHA}: each feature module registers its scripts when it is built, and redkit sends {@code SCRIPT LOAD}
 * for them at once, again whenever a connection to a server opens or reopens (a restart, a failover, a new Cluster
 * node) and, on Cluster, on every master and replica after each topology change. The {@code EVAL} fallback on
 * {@code NOSCRIPT} stays as a safety net (a {@code SCRIPT FLUSH} is not seen by the client).
 */
public interface ScriptRegistry {

    /**
     * Registers {@code scripts} and loads those not registered before on every server known now, waiting up to the
     * background profile's timeout. A server that does not answer in time is not an error: the script is loaded when
     * the connection to it opens again, and a call that meets {@code NOSCRIPT} meanwhile still sends the source.
     */
    void register(Collection<? extends RedisScript<?>> scripts);

    /** {@link #register(Collection)} of the given scripts. */
    default void register(RedisScript<?>... scripts) {
        register(List.of(scripts));
    }

    /** The scripts registered so far. */
    Set<RedisScript<?>> registered();
}
