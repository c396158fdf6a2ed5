package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.Tracer;
import io.redkit.Redkit;
import io.redkit.lock.Locks;
import io.redkit.testing.RedisServerExtension;

/**
 * The starter hands the application's ObservationRegistry to redkit, so that a lock acquire in a request appears
 * under the request's observation, and traces every command too when a Tracer is there or when asked (issue 23
 * point 4).
 */
class ObservationIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class))
            .withPropertyValues("redkit.url=" + redis.url());

    @Test
    void operationsAreObservedUnderTheRequestInTheApplicationsRegistry() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        runner.withBean(ObservationRegistry.class, () -> registry).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Redkit.class).config().traceCommands()).isFalse();
            Observation request = Observation.start("http.request", registry);
            try (Observation.Scope ignored = request.openScope()) {
                context.getBean(Locks.class).lock("order:1").tryAcquire().orElseThrow().release();
            } finally {
                request.stop();
            }
            TestObservationRegistryAssert.assertThat(registry).hasObservationWithNameEqualTo("redkit.lock.acquire")
                    .that().hasParentObservationEqualTo(request).hasLowCardinalityKeyValue("outcome", "acquired");
        });
    }

    @Test
    void commandsAreTracedWhenATracerIsThereUnlessTurnedOff() {
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create).withBean(Tracer.class, () -> Tracer.NOOP)
                .run(context -> assertThat(context.getBean(Redkit.class).config().traceCommands()).isTrue());
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create).withBean(Tracer.class, () -> Tracer.NOOP)
                .withPropertyValues("redkit.trace-commands=false")
                .run(context -> assertThat(context.getBean(Redkit.class).config().traceCommands()).isFalse());
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withPropertyValues("redkit.trace-commands=true")
                .run(context -> assertThat(context.getBean(Redkit.class).config().traceCommands()).isTrue());
    }

    @Test
    void withoutARegistryNothingIsObservedAndTracingCommandsCannotBeAsked() {
        runner.withPropertyValues("redkit.trace-commands=true").run(context -> {
            assertThat(context).hasNotFailed();
            Redkit redkit = context.getBean(Redkit.class);
            assertThat(redkit.observations().isNoop()).isTrue();
            assertThat(redkit.config().traceCommands()).isFalse();
        });
    }
}
