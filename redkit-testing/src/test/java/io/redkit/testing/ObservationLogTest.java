package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/** What the log records: each start and stop, in order, by name, with their key values readable. */
class ObservationLogTest {

    @Test
    void recordsStartsAndStopsInOrderWithTheirKeyValues() {
        ObservationRegistry registry = ObservationRegistry.create();
        ObservationLog log = ObservationLog.of(registry);
        Observation outer = Observation.start("outer", registry);
        Observation inner = Observation.createNotStarted("inner", registry).lowCardinalityKeyValue("outcome", "hit")
                .highCardinalityKeyValue("entry", "1-0").start();
        inner.stop();
        assertThat(log.started()).extracting(Observation.Context::getName).containsExactly("outer", "inner");
        assertThat(log.stopped()).extracting(Observation.Context::getName).containsExactly("inner");
        outer.stop();
        assertThat(log.stopped("outer")).hasSize(1);
        Observation.Context hit = log.stopped("inner").get(0);
        assertThat(ObservationLog.low(hit, "outcome")).isEqualTo("hit");
        assertThat(ObservationLog.high(hit, "entry")).isEqualTo("1-0");
        assertThat(ObservationLog.low(hit, "absent")).isNull();
    }
}
