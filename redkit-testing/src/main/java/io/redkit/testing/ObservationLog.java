package io.redkit.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;

/**
 * The observations a registry starts and stops, in order, for tests that check what an operation observed (with
 * micrometer-observation-test's assertions for the rest). Thread-safe: observations start and stop on any thread.
 */
public final class ObservationLog {

    private final List<Observation.Context> started = new CopyOnWriteArrayList<>();
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    private ObservationLog() {
    }

    /** A log of what {@code registry} observes from now on (a handler added to it). */
    public static ObservationLog of(ObservationRegistry registry) {
        ObservationLog log = new ObservationLog();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStart(Observation.Context context) {
                log.started.add(context);
            }

            @Override
            public void onStop(Observation.Context context) {
                log.stopped.add(context);
            }
        });
        return log;
    }

    /** Every observation started, in order. */
    public List<Observation.Context> started() {
        return List.copyOf(started);
    }

    /** The observations named {@code name} started, in order. */
    public List<Observation.Context> started(String name) {
        return started.stream().filter(c -> name.equals(c.getName())).toList();
    }

    /** Every observation stopped, in order. */
    public List<Observation.Context> stopped() {
        return List.copyOf(stopped);
    }

    /** The observations named {@code name} stopped, in order. */
    public List<Observation.Context> stopped(String name) {
        return stopped.stream().filter(c -> name.equals(c.getName())).toList();
    }

    /** The low-cardinality value of {@code key}, or null. */
    public static String low(Observation.ContextView context, String key) {
        KeyValue value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    /** The high-cardinality value of {@code key}, or null. */
    public static String high(Observation.ContextView context, String key) {
        KeyValue value = context.getHighCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }
}
