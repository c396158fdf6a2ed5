package io.redkit.spring;

import org.springframework.core.env.Environment;

import io.micrometer.core.instrument.MeterRegistry;
import io.redkit.CommandProfile;
import io.redkit.DedicatedPoolConfig;
import io.redkit.RedkitConfig;

/** {@link RedkitProperties} into a {@link RedkitConfig}: the URL first, then each property that was set. */
final class ClientSettings {

    /** The one message for a service that did not say where Redis is. */
    static final String NO_URL = "redkit: no Redis URL. Set redkit.url (e.g. redis://127.0.0.1:6379) or the "
            + RedkitConfig.ENV_REDIS_URL + " environment variable";

    private ClientSettings() {
    }

    /** {@code redkit.url}, else {@code REDIS_URL} (the environment, or a property of that name). */
    static String url(RedkitProperties properties, Environment environment) {
        String url = properties.getUrl();
        if (url == null || url.isBlank()) {
            url = environment.getProperty(RedkitConfig.ENV_REDIS_URL);
        }
        if (url == null || url.isBlank()) {
            throw new IllegalStateException(NO_URL);
        }
        return url;
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
        RedkitProperties.Pool pool = p.getPool();
        b.dedicatedPool(new DedicatedPoolConfig(pool.getMaxSize(), pool.getMaxIdle(), pool.getMaxWait()));
        return b.meterRegistry(meters).build();
    }
}
