package io.redkit.lab.bench.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Ceiling;
import io.redkit.lock.LockScripts;

/**
 * The release half of the lock ceiling: redis-benchmark running the release script on locks that are held, so
 * that it does a real release's GET, DEL and EXISTS. On a key nobody holds the script stops after its GET and
 * the server serves it about 40% faster, which would make the ceiling a limit for a cycle it never serves.
 *
 * <p>redis-benchmark can only pick keys at random ({@code -r N}: {@code __rand_int__} becomes a number below N),
 * so the step first holds N = {@value #KEYS_PER_REQUEST} × requests locks with the owner token the run sends,
 * (at most {@value #MAX_KEYS}) and removes them after. Of n random draws from 10n keys about 95% are distinct:
 * 95% of the calls release a held lock, the rest find it released already and take the cheap path, leaving the
 * ceiling a little high, never low.
 */
final class ReleaseStep implements Ceiling.Step {

    static final int KEYS_PER_REQUEST = 10;
    static final long MAX_KEYS = 4_000_000;
    private static final String OWNER = "owner";
    private static final long SAFETY_TTL_MILLIS = 600_000;
    private static final int BATCH = 10_000;

    @Override
    public List<String> args(long requests) {
        return List.of("-r", String.valueOf(keys(requests)), "EVALSHA", LockScripts.RELEASE.sha1(), "2",
                "bench:lock:{__rand_int__}", "bench:lock:{__rand_int__}:waiting", OWNER, "bench:lock:released");
    }

    /** Holds every lock the run may release; the TTL only clears them if {@link #after} never runs. */
    @Override
    public void before(BenchEnv env, long requests) throws Exception {
        SetArgs held = SetArgs.Builder.px(SAFETY_TTL_MILLIS);
        forEachBatch(env, requests, (async, batch) -> {
            List<RedisFuture<?>> sent = new ArrayList<>(batch.size());
            for (String key : batch) {
                sent.add(async.set(key, OWNER, held));
            }
            return sent;
        });
    }

    @Override
    public void after(BenchEnv env, long requests) throws Exception {
        forEachBatch(env, requests, (async, batch) -> List.of(async.unlink(batch.toArray(String[]::new))));
    }

    private interface Batch {
        List<RedisFuture<?>> send(RedisAsyncCommands<String, String> async, List<String> keys);
    }

    /** Sends {@code batch} for the keys, {@value #BATCH} at a time in one write, and waits for each batch. */
    private static void forEachBatch(BenchEnv env, long requests, Batch batch) throws Exception {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.setAutoFlushCommands(false);
            long n = keys(requests);
            for (long from = 0; from < n; from += BATCH) {
                List<String> keys = new ArrayList<>(BATCH);
                for (long i = from; i < Math.min(n, from + BATCH); i++) {
                    keys.add(key(i));
                }
                List<RedisFuture<?>> sent = batch.send(c.async(), keys);
                c.flushCommands();
                for (RedisFuture<?> f : sent) {
                    f.get();
                }
            }
        } finally {
            client.shutdown();
        }
    }

    static long keys(long requests) {
        return Math.min(MAX_KEYS, KEYS_PER_REQUEST * requests);
    }

    /** The key redis-benchmark makes of {@code bench:lock:{__rand_int__}} for {@code i}: twelve digits. */
    static String key(long i) {
        return String.format(Locale.ROOT, "bench:lock:{%012d}", i);
    }
}
