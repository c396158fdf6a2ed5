package io.redkit.lock;

/**
 * The monotonic time a lease measures its validity with, in nanoseconds from an arbitrary origin. Injected so that
 * tests can drive validity without sleeping; never the wall clock, which may jump.
 */
@FunctionalInterface
public interface MonotonicClock {

    /** {@link System#nanoTime()}. */
    MonotonicClock SYSTEM = System::nanoTime;

    /** The current time in nanoseconds; only differences between two readings mean anything. */
    long nanoTime();
}
