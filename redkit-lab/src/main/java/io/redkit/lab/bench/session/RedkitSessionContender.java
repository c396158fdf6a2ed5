package io.redkit.lab.bench.session;

import java.util.ArrayList;
import java.util.List;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionStore;

/**
 * redkit's {@code SessionStore.load(cookieValue)} with its defaults: the id checked, then one EVALSHA that reads
 * the session and renews its idle timeout capped by its absolute lifetime, then the JSON header and payload
 * decoded into the typed data.
 */
final class RedkitSessionContender extends SessionContender {

    static final String NAMESPACE = "bench-sess";
    private static final KeySchema SESSION_KEYS = KeySchema.of(NAMESPACE);
    private static final KeySchema INDEX_KEYS = KeySchema.of(NAMESPACE + ".user");

    private Redkit redkit;
    private SessionStore<Visitor> store;
    private final String[] ids = new String[Visitor.SESSIONS];

    RedkitSessionContender() {
        super("redkit");
    }

    @Override
    public void setup(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-" + name()).build());
        store = SessionStore.builder(redkit, Visitor.class)
                .config(SessionConfig.builder().namespace(NAMESPACE).build()).build();
        for (int i = 0; i < Visitor.SESSIONS; i++) {
            ids[i] = store.create(Visitor.user(i), Visitor.of(i)).id().value();
        }
    }

    @Override
    Visitor loadAndTouch(int i) {
        return store.load(ids[i]).map(s -> s.data()).orElse(null);
    }

    @Override
    public void close() {
        if (redkit != null) {
            // Its keys go, so that a run against a server of the user's leaves nothing behind.
            for (int from = 0; from < Visitor.SESSIONS; from += 1000) {
                List<String> keys = new ArrayList<>();
                for (int i = from; i < Math.min(Visitor.SESSIONS, from + 1000) && ids[i] != null; i++) {
                    keys.add(SESSION_KEYS.key(ids[i]));
                    keys.add(INDEX_KEYS.key(Visitor.user(i)));
                }
                if (!keys.isEmpty()) {
                    redkit.commands().unlink(keys.toArray(String[]::new));
                }
            }
            redkit.close();
        }
    }
}
