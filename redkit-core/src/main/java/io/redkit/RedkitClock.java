package io.redkit;

/**
 * The one time source of a {@link Redkit} and of every feature built on it: monotonic nanoseconds for deadlines,
 * backoffs, lease validity and waits, and wall-clock milliseconds for what is stored and read by other processes
 * (a cache entry's logical expiry). Injected through {@link RedkitConfig.Builder#clock}, so that timing logic is
 * tested by moving a clock instead of sleeping.
 *
 * <p>Where several processes must agree on time (rate-limit windows), redkit reads the Redis server's clock
 * ({@code TIME} inside a script) instead; this clock is the local process's.
 */
public interface RedkitClock {

    /** {@link System#nanoTime()} and {@link System#currentTimeMillis()}. */
    RedkitClock SYSTEM = new RedkitClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long wallMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public String toString() {
            return "RedkitClock.SYSTEM";
        }
    };

    /** Monotonic time in nanoseconds from an arbitrary origin; only differences between two readings mean anything. */
    long nanoTime();

    /** Wall-clock time in Unix epoch milliseconds; may jump, so never used for a local deadline. */
    long wallMillis();
}
