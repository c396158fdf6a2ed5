package io.redkit.lab.bench.client;

import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * A client contender: each call picks a key uniformly from the key space and does the op's one command; a GET
 * that misses (every key is preloaded) is an error, so that no contender can look fast by answering nothing.
 */
abstract class ClientContender implements Contender {

    private final String name;
    private final ClientOp op;
    private final byte[] value = KeySpace.value();

    ClientContender(String name, ClientOp op) {
        this.name = name;
        this.op = op;
    }

    @Override
    public final String name() {
        return name;
    }

    /** One GET; null for a miss. */
    abstract byte[] get(String key) throws Exception;

    /** One SET of {@code value} without expiry. */
    abstract void set(String key, byte[] value) throws Exception;

    @Override
    public final void call(Caller caller) throws Exception {
        String key = KeySpace.any(caller);
        if (op == ClientOp.SET) {
            set(key, value);
        } else if (get(key) == null) {
            throw new IllegalStateException(name + ": miss on the preloaded key " + key);
        }
    }
}
