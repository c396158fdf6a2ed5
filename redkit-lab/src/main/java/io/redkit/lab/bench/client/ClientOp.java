package io.redkit.lab.bench.client;

import java.util.Locale;

/** The two operations of {@code bench client}: a GET of a present key, and a SET of a 100-byte value. */
enum ClientOp {
    GET, SET;

    static ClientOp of(String op) {
        return valueOf(op.toUpperCase(Locale.ROOT));
    }
}
