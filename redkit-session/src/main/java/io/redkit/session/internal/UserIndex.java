package io.redkit.session.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionScripts;

/**
 * Each user's index of session ids, {@code <namespace>.user:{<user id>}}: a sorted set scored by each session's
 * absolute expiry, pruned of ended members on every write and expiring with its latest member, so it neither grows
 * without bound nor outlives the sessions it lists. A member whose session ended by its idle timeout stays until
 * its absolute expiry or the next revoke-all; deleting it then costs a DEL of a missing key.
 *
 * <p>The index's key is in the user's hash slot and a session's in its id's, so on Cluster they are written by
 * separate commands, never one script; the store orders them so that a usable session is always listed.
 */
final class UserIndex {

    /** Ids read per round of revoke-all; a user with more takes several rounds. */
    static final int PAGE = 1000;

    private final KeySchema schema;
    private final RedisOps ops;

    UserIndex(SessionConfig config, RedisOps ops) {
        this.schema = KeySchema.of(config.namespace() + ".user");
        this.ops = ops;
    }

    /** The index key of {@code userId}. */
    String key(String userId) {
        return schema.key(userId);
    }

    /** Lists the session, prunes ended members and sets the index's expiry to its latest member's. */
    void add(String userId, String sessionId, long absoluteExpiry, long now) {
        ops.eval(SessionScripts.INDEX_ADD, List.of(key(userId)), bytes(sessionId), bytes(absoluteExpiry),
                bytes(now));
    }

    /** Takes sessions out of the index. */
    void remove(String userId, String... sessionIds) {
        ops.zrem(key(userId), sessionIds);
    }

    /** Up to {@link #PAGE} listed session ids, soonest absolute expiry first. */
    List<String> page(String userId) {
        return ops.zrangeByScore(key(userId), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, PAGE);
    }

    private static byte[] bytes(Object value) {
        return String.valueOf(value).getBytes(StandardCharsets.US_ASCII);
    }
}
