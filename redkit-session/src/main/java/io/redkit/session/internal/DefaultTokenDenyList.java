package io.redkit.session.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.session.DenyListConfig;
import io.redkit.session.SessionHealth;
import io.redkit.session.TokenDenyList;

/**
 * The deny-list: {@code deny:{<token id>}} set with {@code PX} to the token's expiry plus the leeway, from this
 * client's wall clock (the issuer's clock wrote the expiry; a skew between the two is what the leeway absorbs).
 * Meters {@code redkit.session.deny.denied}, {@code .checks{result}} and {@code .unavailable}, tagged
 * {@code client} and {@code store}.
 */
public final class DefaultTokenDenyList implements TokenDenyList {

    private static final byte[] MARK = {'1'};

    private final DenyListConfig config;
    private final RedisOps ops;
    private final RedkitClock clock;
    private final KeySchema schema;
    private final Guard guard;
    private final Counter denied;
    private final Counter checkedDenied;
    private final Counter checkedAllowed;

    /** Builds the deny-list; use {@link TokenDenyList#create}. */
    public DefaultTokenDenyList(Redkit redkit, DenyListConfig config) {
        this.config = config;
        this.ops = config.timeout() == null ? redkit.commands() : redkit.commands().withTimeout(config.timeout());
        this.clock = redkit.clock();
        this.schema = KeySchema.of(config.namespace());
        MeterRegistry registry = redkit.meters();
        Tags tags = Tags.of("client", redkit.config().name(), "store", config.namespace());
        this.denied = Counter.builder("redkit.session.deny.denied").description("token ids denied").tags(tags)
                .register(registry);
        String checks = "redkit.session.deny.checks";
        this.checkedDenied = Counter.builder(checks).description("deny-list checks by result")
                .tags(tags.and("result", "denied")).register(registry);
        this.checkedAllowed = Counter.builder(checks).description("deny-list checks by result")
                .tags(tags.and("result", "allowed")).register(registry);
        Counter unavailable = Counter.builder("redkit.session.deny.unavailable")
                .description("deny-list operations failed closed because Redis did not answer").tags(tags)
                .register(registry);
        this.guard = new Guard(redkit, "deny-list", config.namespace(), unavailable::increment);
    }

    @Override
    public boolean deny(String tokenId, Instant expiresAt) {
        String key = key(tokenId);
        Objects.requireNonNull(expiresAt, "expiresAt");
        long now = clock.wallMillis();
        long untilExpiry = expiresAt.toEpochMilli() - now;
        if (untilExpiry > config.maxTokenLifetime().toMillis()) {
            throw new IllegalArgumentException("expiresAt " + expiresAt + " is more than maxTokenLifetime ("
                    + config.maxTokenLifetime() + ") away; a bug or a forged claim, not denied");
        }
        long ttl = untilExpiry + config.leeway().toMillis();
        if (ttl <= 0) {
            return false;
        }
        guard.run("deny", key, () -> {
            ops.set(key, MARK, Duration.ofMillis(ttl));
            return null;
        });
        denied.increment();
        return true;
    }

    @Override
    public boolean isDenied(String tokenId) {
        String key = key(tokenId);
        boolean isDenied = guard.run("deny-list check", key, () -> ops.exists(key)) > 0;
        (isDenied ? checkedDenied : checkedAllowed).increment();
        return isDenied;
    }

    @Override
    public SessionHealth health() {
        return guard.health(ops);
    }

    @Override
    public DenyListConfig config() {
        return config;
    }

    private String key(String tokenId) {
        return schema.key(Checks.keyPart("tokenId", tokenId, DenyListConfig.MAX_TOKEN_ID_LENGTH));
    }

    @Override
    public String toString() {
        return "TokenDenyList[" + config + "]";
    }
}
