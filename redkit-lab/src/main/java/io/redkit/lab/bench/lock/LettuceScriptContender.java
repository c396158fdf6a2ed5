package io.redkit.lab.bench.lock;

import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;
import io.redkit.lock.LockScripts;

/**
 * Raw Lettuce sync on one shared connection, running redkit's own acquire and release scripts by EVALSHA with a
 * fresh owner token per cycle: the floor of what any Lettuce-based lock can cost with these scripts.
 */
final class LettuceScriptContender implements Contender {

    static final String NAME = "lettuce-evalsha";
    private static final String TTL = Long.toString(LockBenchmark.TTL_MILLIS);
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> sync;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void setup(BenchEnv env) {
        client = RedisClient.create(RedisURI.create(env.url()));
        connection = client.connect();
        sync = connection.sync();
    }

    @Override
    public void call(Caller caller) {
        String key = "bench:lettuce:{" + LockBenchmark.lockName(caller.id()) + "}";
        String[] keys = {key, key + ":waiting"};
        String owner = UUID.randomUUID().toString();
        Long acquired = sync.evalsha(LockScripts.ACQUIRE.sha1(), ScriptOutputType.INTEGER, keys, owner, TTL, "0");
        if (acquired == null || acquired != 0) {
            throw new IllegalStateException("busy: " + key);
        }
        Long released = sync.evalsha(LockScripts.RELEASE.sha1(), ScriptOutputType.INTEGER, keys, owner,
                "bench:lettuce:released");
        if (released == null || released != 1) {
            throw new IllegalStateException("lost: " + key);
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown();
        }
    }
}
