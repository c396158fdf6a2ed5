package io.redkit.lab.bench.client;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lab.bench.BenchEnv;

/** redkit's request path: {@code Redkit.commands().get/set} on its shared connection, with its defaults. */
final class RedkitContender extends ClientContender {

    private Redkit redkit;

    RedkitContender(ClientOp op) {
        super("redkit", op);
    }

    @Override
    public void setup(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-redkit").build());
    }

    @Override
    byte[] get(String key) {
        return redkit.commands().get(key).orElse(null);
    }

    @Override
    void set(String key, byte[] value) {
        redkit.commands().set(key, value);
    }

    @Override
    public void close() {
        if (redkit != null) {
            redkit.close();
        }
    }
}
