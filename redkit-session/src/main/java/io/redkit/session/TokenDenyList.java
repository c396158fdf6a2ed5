package io.redkit.session;

import java.time.Instant;
import java.util.Objects;

import io.redkit.Redkit;
import io.redkit.session.internal.DefaultTokenDenyList;

/**
 * Revocation for stateless tokens (a JWT's {@code jti}): a denied id is kept until the token's own expiry (plus a
 * leeway for the validators' clock skew) and no longer, since an expired token is refused by its expiry anyway.
 * One {@code SET PX} to deny, one {@code EXISTS} to check. Fails closed: when Redis cannot answer,
 * {@link #isDenied} throws {@link SessionStoreUnavailableException}; it never answers "not denied" for an outage.
 */
public interface TokenDenyList {

    /** The deny-list of {@code redkit} with {@code config}. */
    static TokenDenyList create(Redkit redkit, DenyListConfig config) {
        return new DefaultTokenDenyList(Objects.requireNonNull(redkit, "redkit"),
                Objects.requireNonNull(config, "config"));
    }

    /**
     * Denies {@code tokenId} until {@code expiresAt} plus the leeway. False, with nothing written, when that is
     * already past: the token is refused by its own expiry.
     *
     * @throws IllegalArgumentException when the id is empty or too long, or {@code expiresAt} is further away than
     *     {@link DenyListConfig#maxTokenLifetime()}
     * @throws SessionStoreUnavailableException when Redis did not answer: the token may not be denied
     */
    boolean deny(String tokenId, Instant expiresAt);

    /**
     * Whether {@code tokenId} is denied.
     *
     * @throws IllegalArgumentException when the id is empty or too long (nothing is sent)
     * @throws SessionStoreUnavailableException when Redis did not answer: treat the token as refused
     */
    boolean isDenied(String tokenId);

    /** READY or NOT_READY, and since when, as {@link SessionStore#health()}. */
    SessionHealth health();

    /** The configuration. */
    DenyListConfig config();
}
