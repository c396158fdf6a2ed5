package io.redkit.spring;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import io.micrometer.core.instrument.MeterRegistry;
import io.redkit.CommandProfile;
import io.redkit.DedicatedPoolConfig;
import io.redkit.RedkitConfig;

/** {@link RedkitProperties} into a {@link RedkitConfig}: the URL first, then each property that was set. */
final class ClientSettings {

    private static final String TRACER = "io.micrometer.tracing.Tracer";

    /** The one message for a service that did not say where Redis is. */
    static final String NO_URL = "redkit: no Redis URL. Set redkit.url (e.g. redis://127.0.0.1:6379), the "
            + RedkitConfig.ENV_REDIS_URL + " environment variable, or spring.data.redis.url";

    private ClientSettings() {
    }

    /** Where the client connects, and which setting said so (for the start-up line). */
    record Url(String url, String source) {
    }

    /**
     * {@code redkit.url}, else {@code REDIS_URL} (the environment, or a property of that name), else what an
     * application with Spring Data Redis already has: {@code spring.data.redis.url}, or {@code spring.data.redis.host}
     * (with its port, username, password, database and {@code ssl.enabled}) when it is set explicitly — Spring's
     * own default of localhost is not taken for an answer.
     */
    static Url url(RedkitProperties properties, Environment environment) {
        if (present(properties.getUrl())) {
            return new Url(properties.getUrl(), "redkit.url");
        }
        String env = environment.getProperty(RedkitConfig.ENV_REDIS_URL);
        if (present(env)) {
            return new Url(env, RedkitConfig.ENV_REDIS_URL);
        }
        String spring = environment.getProperty("spring.data.redis.url");
        if (present(spring)) {
            return new Url(spring, "spring.data.redis.url");
        }
        String host = environment.getProperty("spring.data.redis.host");
        if (present(host)) {
            return new Url(fromParts(environment, host), "spring.data.redis.host");
        }
        throw new IllegalStateException(NO_URL);
    }

    private static String fromParts(Environment environment, String host) {
        boolean ssl = Boolean.parseBoolean(environment.getProperty("spring.data.redis.ssl.enabled", "false"));
        String user = environment.getProperty("spring.data.redis.username");
        String password = environment.getProperty("spring.data.redis.password");
        StringBuilder url = new StringBuilder(ssl ? "rediss://" : "redis://");
        if (present(password)) {
            url.append(present(user) ? encode(user) : "").append(':').append(encode(password)).append('@');
        }
        url.append(host.contains(":") ? "[" + host + "]" : host).append(':')
                .append(environment.getProperty("spring.data.redis.port", "6379"));
        String database = environment.getProperty("spring.data.redis.database");
        if (present(database) && !"0".equals(database.trim())) {
            url.append('/').append(database.trim());
        }
        return url.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }

    /** Whether the application has a Micrometer Tracing {@code Tracer} bean (micrometer-tracing is optional). */
    static boolean hasTracer(ListableBeanFactory beans) {
        ClassLoader loader = ClientSettings.class.getClassLoader();
        return ClassUtils.isPresent(TRACER, loader)
                && beans.getBeanNamesForType(ClassUtils.resolveClassName(TRACER, loader), false, false).length > 0;
    }

    /** The client configuration; a bad value fails here, named by redkit-core's builders. */
    static RedkitConfig config(RedkitProperties p, String url, MeterRegistry meters) {
        RedkitConfig.Builder b = RedkitConfig.builder().url(url);
        if (p.getName() != null) {
            b.name(p.getName());
        }
        if (p.getClientName() != null) {
            b.clientName(p.getClientName());
        }
        if (p.getConnectTimeout() != null) {
            b.connectTimeout(p.getConnectTimeout());
        }
        if (p.getCommandTimeout() != null) {
            b.commandTimeout(p.getCommandTimeout());
        }
        if (p.getBackgroundTimeout() != null) {
            b.backgroundProfile(CommandProfile.BACKGROUND.withTimeout(p.getBackgroundTimeout()));
        }
        if (p.getTopologyRefreshPeriod() != null) {
            b.topologyRefreshPeriod(p.getTopologyRefreshPeriod());
        }
        if (p.getMaxReconnectDelay() != null) {
            b.maxReconnectDelay(p.getMaxReconnectDelay());
        }
        if (p.getConsolidateFlushes() != null) {
            b.consolidateFlushes(p.getConsolidateFlushes());
        }
        RedkitProperties.Pool pool = p.getPool();
        b.dedicatedPool(new DedicatedPoolConfig(pool.getMaxSize(), pool.getMaxIdle(), pool.getMaxWait()));
        return b.meterRegistry(meters).build();
    }
}
