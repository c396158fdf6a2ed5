package io.redkit.lab.client;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.URI;
import java.util.Locale;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;

/**
 * The first connect of a fresh JVM, run as a process of its own by {@code lab client} so that nothing is loaded
 * yet: JVM start to {@code main}, the host's DNS lookup, {@code Redkit.create} (classes loaded, Netty event loops,
 * the connection's handshake: HELLO, CLIENT SETINFO, scripts), the first GET's reply; then the same again in the
 * now warm JVM, whose difference to the cold figures is class loading and first-run code. Prints one line:
 * {@code key=value} pairs, milliseconds unless named otherwise.
 */
public final class FirstConnect {

    private FirstConnect() {
    }

    /** {@code args[0]}: the Redis URL. */
    public static void main(String[] args) throws Exception {
        long atMain = System.currentTimeMillis();
        long t0 = System.nanoTime();
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        long classesAtMain = classes.getTotalLoadedClassCount();
        long t1 = System.nanoTime();
        InetAddress.getAllByName(URI.create(args[0]).getHost());
        long t2 = System.nanoTime();
        long classesBefore = classes.getTotalLoadedClassCount();
        Redkit cold = Redkit.create(RedkitConfig.builder().url(args[0]).name("lab-first-connect").build());
        long t3 = System.nanoTime();
        long classesConnected = classes.getTotalLoadedClassCount();
        cold.commands().get("lab:first-connect");
        long t4 = System.nanoTime();
        long atReply = System.currentTimeMillis();
        long classesReplied = classes.getTotalLoadedClassCount();
        Redkit warm = Redkit.create(RedkitConfig.builder().url(args[0]).name("lab-first-connect-warm").build());
        long t5 = System.nanoTime();
        warm.commands().get("lab:first-connect");
        long t6 = System.nanoTime();
        long t7 = System.nanoTime();
        cold.close();
        warm.close();
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.println(String.format(Locale.ROOT, "jvm_to_main_ms=%d management_ms=%.1f dns_ms=%.1f"
                + " connect_ms=%.1f connect_classes=%d first_reply_ms=%.1f first_reply_classes=%d"
                + " main_to_first_reply_ms=%.1f jvm_to_first_reply_ms=%d warm_connect_ms=%.1f warm_reply_ms=%.1f"
                + " classes_at_main=%d close_ms=%.1f", atMain - jvmStart, ms(t1 - t0), ms(t2 - t1), ms(t3 - t2),
                classesConnected - classesBefore, ms(t4 - t3), classesReplied - classesConnected, ms(t4 - t0),
                atReply - jvmStart, ms(t5 - t4), ms(t6 - t5), classesAtMain, ms(System.nanoTime() - t7)));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
