package io.redkit;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * One kind of operation a caller waits on (a lock's acquire, a cache's get), observed through Micrometer's
 * Observation API: with Micrometer Tracing, a span under the caller's current observation (its request's trace);
 * with a meter handler (Spring Boot registers one), a timer of the same name. The Redis commands it sends are
 * observed beneath it when {@link RedkitConfig#traceCommands()} is on.
 *
 * <p>Every observation of a kind carries the same low-cardinality keys: {@code client}, the feature's own (a
 * cache's name, a namespace) and {@code outcome}, which is {@code error} when the operation threw, because a
 * registry such as Prometheus's refuses one meter name with different tag keys. Keys, session ids and tokens never
 * become key values.
 *
 * <p>Without a registry ({@link Redkit#observations()} is the no-op one) {@link #active()} is false and a feature
 * runs its operation directly, so the hot path allocates nothing for it.
 */
public final class ObservedOperation {

    /** The key every observation of redkit ends with. */
    public static final String OUTCOME = "outcome";

    private static final KeyValue ERROR = KeyValue.of(OUTCOME, "error");

    private final ObservationRegistry registry;
    private final String name;
    private final String contextualName;
    private final KeyValues tags;

    /**
     * @param redkit the client whose registry and name are used
     * @param name the observation's name, such as {@code redkit.cache.get} (also the timer's name)
     * @param contextualName the span's name, such as {@code cache get products}: low-cardinality too
     * @param tags the feature's own low-cardinality key values, set on every observation of this kind
     */
    public ObservedOperation(Redkit redkit, String name, String contextualName, KeyValues tags) {
        this.registry = redkit.observations();
        this.name = Objects.requireNonNull(name, "name");
        this.contextualName = Objects.requireNonNull(contextualName, "contextualName");
        this.tags = KeyValues.of("client", redkit.config().name()).and(tags);
    }

    /** An {@code outcome} key value, made once per value and kept in a constant. */
    public static KeyValue outcome(String value) {
        return KeyValue.of(OUTCOME, value);
    }

    /** Whether observations are recorded at all; when not, call the operation directly. */
    public boolean active() {
        return !registry.isNoop();
    }

    /**
     * Runs {@code work} observed: started under the current observation and in scope while it runs (so what it
     * calls is observed beneath it), then stopped with the outcome {@code outcome} gives for its result, or, when
     * that gives {@code null}, the one {@code work} set on the observation itself; with {@code error} and the
     * exception when it threw.
     */
    public <T, E extends Exception> T observe(Work<T, E> work, Function<? super T, KeyValue> outcome) throws E {
        Observation observation = start();
        try (Observation.Scope ignored = observation.openScope()) {
            T result = work.run(observation);
            tagOutcome(observation, outcome.apply(result));
            return result;
        } catch (Throwable t) {
            observation.lowCardinalityKeyValue(ERROR).error(t);
            throw t;
        } finally {
            observation.stop();
        }
    }

    /**
     * Starts {@code work} observed, in scope while it starts (so the commands it sends are observed beneath it),
     * and stops the observation when the future it returns completes, with the outcome {@code outcome} gives for
     * its value (when that gives {@code null}, the one {@code work} set), or {@code error} when it failed. The
     * caller's future completes after the observation stopped.
     */
    public <T> CompletableFuture<T> observeAsync(Function<Observation, CompletableFuture<T>> work,
            Function<? super T, KeyValue> outcome) {
        Observation observation = start();
        CompletableFuture<T> started;
        try (Observation.Scope ignored = observation.openScope()) {
            started = work.apply(observation);
        } catch (RuntimeException | Error e) {
            observation.lowCardinalityKeyValue(ERROR).error(e);
            observation.stop();
            throw e;
        }
        return started.whenComplete((value, failure) -> {
            if (failure != null) {
                observation.lowCardinalityKeyValue(ERROR).error(failure instanceof CompletionException
                        && failure.getCause() != null ? failure.getCause() : failure);
            } else {
                tagOutcome(observation, outcome.apply(value));
            }
            observation.stop();
        });
    }

    private Observation start() {
        return Observation.createNotStarted(name, registry).contextualName(contextualName)
                .lowCardinalityKeyValues(tags).start();
    }

    /** The outcome for the result, unless it is null: then the one the operation set on the observation stands. */
    private static void tagOutcome(Observation observation, KeyValue outcome) {
        if (outcome != null) {
            observation.lowCardinalityKeyValue(outcome);
        }
    }

    /** An operation given the observation it runs under, to add key values only it knows. */
    @FunctionalInterface
    public interface Work<T, E extends Exception> {
        T run(Observation observation) throws E;
    }

    @Override
    public String toString() {
        return "ObservedOperation[" + name + ", " + tags + "]";
    }
}
