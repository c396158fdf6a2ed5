package io.redkit.spring;

import java.util.Objects;
import java.util.Optional;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.session.JsonSessionCodec;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionHealth;
import io.redkit.session.SessionStore;

/**
 * Builds the service's {@link SessionStore} from {@code redkit.session.*} once the application names its data type:
 * {@code sessions.store(Account.class)}. One type per store: the store's keys hold one shape of data, so a second,
 * different type is refused rather than left to read the first one's sessions.
 */
public final class RedkitSessions {

    private final Redkit redkit;
    private final SessionConfig config;
    private final Json json;
    private Class<?> type;
    private volatile SessionStore<?> store;

    /** Sessions over {@code redkit} with {@code config}, data as JSON through {@link Json#defaults()}. */
    public RedkitSessions(Redkit redkit, SessionConfig config) {
        this(redkit, config, null);
    }

    /**
     * Sessions over {@code redkit} with {@code config}, data as JSON through {@code json} (the application's
     * Jackson), or {@link Json#defaults()} when it is null.
     */
    public RedkitSessions(Redkit redkit, SessionConfig config, Json json) {
        this.redkit = Objects.requireNonNull(redkit, "redkit");
        this.config = Objects.requireNonNull(config, "config");
        this.json = json;
    }

    /**
     * The store whose data is JSON of {@code type}: built on the first call, the same one after.
     *
     * @throws IllegalStateException when the store was built for another type
     */
    @SuppressWarnings("unchecked")
    public synchronized <T> SessionStore<T> store(Class<T> type) {
        Objects.requireNonNull(type, "type");
        if (store == null) {
            JsonSessionCodec<T> codec = JsonSessionCodec.using(json == null ? Json.defaults() : json, type);
            store = SessionStore.builder(redkit, codec).config(config).build();
            this.type = type;
        } else if (this.type != type) {
            throw new IllegalStateException("the session store '" + config.namespace() + "' holds " + this.type
                    .getName() + ", not " + type.getName() + ": one type per store (redkit.session.namespace)");
        }
        return (SessionStore<T>) store;
    }

    /** The store's health, or empty before the store is built. */
    public Optional<SessionHealth> health() {
        SessionStore<?> built = store;
        return built == null ? Optional.empty() : Optional.of(built.health());
    }

    /** The store's configuration. */
    public SessionConfig config() {
        return config;
    }
}
