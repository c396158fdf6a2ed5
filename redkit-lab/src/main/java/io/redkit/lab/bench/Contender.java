package io.redkit.lab.bench;

/**
 * One library doing the benchmark's work. {@link #setup} connects (outside the timed rounds), {@link #call} does
 * exactly one operation and is called concurrently from every caller thread, {@link #close} releases everything.
 */
public interface Contender extends AutoCloseable {

    /** The name in the rows and ratios, e.g. {@code redkit}, {@code lettuce-sync}, {@code redisson}. */
    String name();

    /** Connects and warms whatever the contender needs; not timed. */
    void setup(BenchEnv env) throws Exception;

    /** One operation, timed; must be thread-safe. An exception counts as an error of the round. */
    void call(Caller caller) throws Exception;

    /** Releases connections and threads. */
    @Override
    void close();
}
