package io.redkit.cache;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.zip.Deflater;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;

/**
 * Run in a JVM of its own with a small heap by {@code StandaloneCacheFaultsIT}: writes hostile "deflated"
 * entries and reads them through a cache. Prints {@code OK <answers>} and exits 0 when every read was served by
 * the loader; an OutOfMemoryError ends the JVM with another code.
 */
public final class HostileEntryProbe {

    private HostileEntryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String name = args[1];
        // Forty megabytes take longer than a request's 300 ms to travel, both ways.
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(url).commandTimeout(Duration.ofSeconds(20))
                .build());
                CacheAside<String, String> cache = RedisCache.<String, String>builder(redkit).name(name)
                        .valueType(String.class).loader(id -> Optional.of("loaded-" + id)).build()) {
            KeySchema schema = KeySchema.of("cache." + name);
            byte[] garbage = new byte[40 << 20];
            new Random(1).nextBytes(garbage);
            redkit.commands().set(schema.key("garbage"), deflatedEnvelope(garbage), Duration.ofMinutes(1));
            redkit.commands().set(schema.key("bomb"), deflatedEnvelope(bomb(900 << 20)), Duration.ofMinutes(1));
            String answers = cache.get("garbage").orElseThrow() + " " + readersAtOnce(cache, "bomb", 8);
            System.out.println("OK " + answers);
        }
    }

    /** {@code readers} threads read {@code id} at the same moment; their answers, when they all agree. */
    private static String readersAtOnce(CacheAside<String, String> cache, String id, int readers) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(readers);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        try {
            java.util.List<java.util.concurrent.Future<String>> reads = new java.util.ArrayList<>();
            for (int i = 0; i < readers; i++) {
                reads.add(pool.submit(() -> {
                    go.await();
                    return cache.get(id).orElseThrow();
                }));
            }
            go.countDown();
            java.util.Set<String> answers = new java.util.TreeSet<>();
            for (java.util.concurrent.Future<String> read : reads) {
                answers.add(read.get());
            }
            return String.join(",", answers);
        } finally {
            pool.shutdownNow();
        }
    }

    /** An envelope of format 1 with the deflated flag, version 1, around {@code payload}. */
    private static byte[] deflatedEnvelope(byte[] payload) {
        ByteBuffer out = ByteBuffer.allocate(18 + payload.length);
        out.put((byte) 'r').put((byte) 'k').put((byte) 1).put((byte) 0x02).putShort((short) 1)
                .putLong(System.currentTimeMillis() + 60_000).putInt(1).put(payload);
        return out.array();
    }

    /** A deflate stream of {@code size} zero bytes: under a megabyte on the wire. */
    private static byte[] bomb(int size) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        byte[] zeros = new byte[1 << 20];
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        for (int fed = 0; fed < size; fed += zeros.length) {
            deflater.setInput(zeros);
            while (!deflater.needsInput()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }
}
