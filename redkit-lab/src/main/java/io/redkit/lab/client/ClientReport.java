package io.redkit.lab.client;

/**
 * What {@code lab client} measured; field names are the JSON contract of DESIGN §11 (snake_case on output).
 */
public record ClientReport(String target, Miss miss, Timeout timeout, Disconnected disconnected, Pool pool,
        Noscript noscript, Retry retry, FirstConnect firstConnect, FirstConnect firstConnectWithAppCds) {

    /** A GET of an absent key: {@code result} is "empty" when the miss came back as a value. */
    public record Miss(String result) { }

    /** A GET against a paused server. */
    public record Timeout(long configuredMs, long observedMs, String outcome, String error) { }

    /** A GET while the server is down; {@code observedMs} null when the server could not be killed. */
    public record Disconnected(Long observedMs, String error, String skipped) { }

    /** A dedicated connection asked for while all are taken. */
    public record Pool(int size, long waitMs, long observedMs, String error) { }

    /** A declared script run after SCRIPT FLUSH. */
    public record Noscript(boolean recovered, long result, long expected) { }

    /**
     * {@code Redkit.create} and a GET in a fresh JVM: JVM start to the first reply, and its parts (JVM start to
     * main, DNS lookup, create, first GET; classes loaded by create), then the same in the now warm JVM; the
     * figures null and {@code error} set when the run failed.
     */
    public record FirstConnect(Long jvmToFirstReplyMs, Long jvmToMainMs, Double dnsMs, Double connectMs,
            Long connectClasses, Double firstReplyMs, Double warmConnectMs, Double warmReplyMs, long targetMs,
            boolean met, String error) { }

    /** An INCR that timed out against a paused server, counted once the server answers again. */
    public record Retry(long incrValueAfterTimeout, long incrExpected, String error) { }
}
