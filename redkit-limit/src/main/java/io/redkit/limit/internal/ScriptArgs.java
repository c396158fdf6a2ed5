package io.redkit.limit.internal;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.redkit.limit.Algorithm;
import io.redkit.limit.Limit;
import io.redkit.limit.LimiterConfig;

/**
 * The ARGV of one limiter's script, as its Lua header lays it out: the permits asked for, for the sliding log a
 * random token of the call, then each limit's parameters. The parameters never change, so they are encoded once;
 * a call adds only what is its own.
 */
final class ScriptArgs {

    private static final byte[][] SMALL = new byte[65][];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = ascii(Integer.toString(i));
        }
    }

    private final byte[][] limits;
    private final boolean token;

    ScriptArgs(LimiterConfig config) {
        List<byte[]> encoded = new ArrayList<>();
        for (Limit limit : config.limits()) {
            for (long value : parameters(limit)) {
                encoded.add(ascii(Long.toString(value)));
            }
        }
        this.limits = encoded.toArray(new byte[0][]);
        this.token = config.algorithm() == Algorithm.SLIDING_LOG;
    }

    /**
     * A limit's parameters as its script reads them: fixed window and sliding log, the window in µs and L; the
     * sliding counter, the window in ms (it weighs by elapsed milliseconds) and L; GCRA, the emission interval
     * period / permits as a reduced fraction of µs (so that the script counts exactly) and the burst.
     */
    static long[] parameters(Limit limit) {
        long micros = limit.period().toNanos() / 1000;
        return switch (limit.algorithm()) {
            case FIXED_WINDOW, SLIDING_LOG -> new long[] {micros, limit.permits()};
            case SLIDING_COUNTER -> new long[] {limit.period().toMillis(), limit.permits()};
            case GCRA -> {
                long gcd = BigInteger.valueOf(micros).gcd(BigInteger.valueOf(limit.permits())).longValue();
                yield new long[] {micros / gcd, limit.permits() / gcd, limit.capacity()};
            }
        };
    }

    /** The key suffix of a limit's state: its algorithm and period, e.g. {@code gcra.1000}. */
    static String keySuffix(Limit limit) {
        return limit.algorithm().code() + "." + limit.period().toMillis();
    }

    /** The ARGV of one call for {@code permits} (already checked against the capacity). */
    byte[][] forCall(long permits) {
        int head = token ? 2 : 1;
        byte[][] args = new byte[head + limits.length][];
        args[0] = permits < SMALL.length ? SMALL[(int) permits] : ascii(Long.toString(permits));
        if (token) {
            args[1] = ascii(Long.toHexString(ThreadLocalRandom.current().nextLong()));
        }
        System.arraycopy(limits, 0, args, head, limits.length);
        return args;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
