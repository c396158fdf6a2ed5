package io.redkit.lab.bench.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionScripts;
import io.redkit.session.SessionStore;

/**
 * Raw Lettuce sync on one shared connection sending what {@code SessionStore.load} sends: one EVALSHA of redkit's
 * touch script on the session's key (now and the idle timeout in milliseconds), then the payload after the
 * header line decoded by Jackson into the typed data. The sessions are written by a redkit store in setup (the
 * script reads the expiry from redkit's header); the keys are known in advance and the header is not checked, so
 * what redkit adds per load (id parsing and digest, the header's checks, breaker, metrics) shows in the ratio.
 */
final class LettuceTouchContender extends SessionContender {

    static final String NAME = "lettuce-evalsha";
    private static final String NAMESPACE = "bench-sess-raw";
    private static final KeySchema SESSION_KEYS = KeySchema.of(NAMESPACE);
    private static final KeySchema INDEX_KEYS = KeySchema.of(NAMESPACE + ".user");
    private static final byte[] IDLE_MILLIS = ascii(SessionConfig.DEFAULT_IDLE_TIMEOUT.toMillis());
    private static final ObjectReader READER = JsonMapper.builder().build().readerFor(Visitor.class);

    private final String[][] keys = new String[Visitor.SESSIONS][];
    private RedisClient client;
    private StatefulRedisConnection<String, byte[]> connection;
    private RedisCommands<String, byte[]> sync;

    LettuceTouchContender() {
        super(NAME);
    }

    @Override
    public void setup(BenchEnv env) {
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-raw-setup").build())) {
            SessionStore<Visitor> store = SessionStore.builder(redkit, Visitor.class)
                    .config(SessionConfig.builder().namespace(NAMESPACE).build()).build();
            for (int i = 0; i < Visitor.SESSIONS; i++) {
                keys[i] = new String[] {SESSION_KEYS.key(store.create(Visitor.user(i), Visitor.of(i)).id().digest())};
            }
        }
        client = RedisClient.create(RedisURI.create(env.url()));
        connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
        sync = connection.sync();
        sync.scriptLoad(SessionScripts.TOUCH.source().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    Visitor loadAndTouch(int i) throws Exception {
        byte[] stored = sync.evalsha(SessionScripts.TOUCH.sha1(), ScriptOutputType.VALUE, keys[i],
                ascii(System.currentTimeMillis()), IDLE_MILLIS);
        if (stored == null || stored.length < 2) {
            return null;
        }
        int newline = 0;
        while (newline < stored.length && stored[newline] != '\n') {
            newline++;
        }
        return READER.readValue(stored, newline + 1, stored.length - newline - 1);
    }

    private static byte[] ascii(Object value) {
        return value.toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() {
        if (sync != null) {
            // Its keys go, so that a run against a server of the user's leaves nothing behind.
            List<String> gone = new ArrayList<>();
            for (int i = 0; i < Visitor.SESSIONS && keys[i] != null; i++) {
                gone.add(keys[i][0]);
                gone.add(INDEX_KEYS.key(Visitor.user(i)));
            }
            for (int from = 0; from < gone.size(); from += 2000) {
                sync.unlink(gone.subList(from, Math.min(gone.size(), from + 2000)).toArray(String[]::new));
            }
        }
        if (client != null) {
            client.shutdown();
        }
    }
}
