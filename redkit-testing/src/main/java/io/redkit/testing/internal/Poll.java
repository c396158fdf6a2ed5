package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.time.Duration;

/** Polls a condition with a deadline; the only way this module waits for a server to change state. */
public final class Poll {

    // Short enough that waits end soon after the condition holds, long enough not to flood the servers.
    private static final long PAUSE_MILLIS = 20;

    private Poll() {
    }

    /** One attempt at a condition: returns a value when it holds, {@code null} or {@code false} when not yet. */
    @FunctionalInterface
    public interface Probe<T> {

        /** Tries the condition once; an exception means "not yet" unless it is a {@link GiveUp}. */
        T attempt() throws Exception;
    }

    /** Thrown by a probe to stop polling at once, because waiting longer cannot help. */
    public static final class GiveUp extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /** Wraps the failure that {@link Poll#until} rethrows as is. */
        public GiveUp(RuntimeException cause) {
            super(cause);
        }
    }

    /**
     * Repeats the probe until it returns a value other than {@code null}/{@code false}, or throws
     * {@link RedisTestingException} naming {@code what} and the last failure once the timeout passes.
     */
    public static <T> T until(String what, Duration timeout, Probe<T> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                T value = probe.attempt();
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
            } catch (GiveUp e) {
                throw (RuntimeException) e.getCause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisTestingException("Interrupted while waiting for " + what, e);
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                String reason = last == null ? "" : ": last attempt said " + last.getMessage();
                throw new RedisTestingException("Timed out after " + timeout.toMillis() + " ms waiting for " + what + reason, last);
            }
            sleep(PAUSE_MILLIS);
        }
    }

    /** Sleeps briefly between attempts, turning an interrupt into an exception. */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisTestingException("Interrupted", e);
        }
    }
}
