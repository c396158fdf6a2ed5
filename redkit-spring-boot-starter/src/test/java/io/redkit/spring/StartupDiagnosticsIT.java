package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

import io.redkit.Redkit;
import io.redkit.testing.RedisServerExtension;

/**
 * What a Spring Boot user meets first: a failed start said in one description and one action, the URL an
 * application with Spring Data Redis already has, and a warning when caches are configured but caching is off.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupDiagnosticsIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @RegisterExtension
    static final RedisServerExtension locked = RedisServerExtension.standalone().withArgs("requirepass", "s3cret");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class));

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(RedkitAutoConfiguration.class)
    static class App {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    @Test
    void aWrongPortFailsTheStartWithOneDescriptionAndOneActionNamingTheAddress(CapturedOutput output) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        assertThatThrownBy(() -> start("--redkit.url=redis://127.0.0.1:" + port)).isInstanceOf(Exception.class);

        String report = failureReport(output);
        assertThat(report).contains("Description:", "Action:", "127.0.0.1:" + port,
                "Check that Redis is running at that address");
        assertThat(report.lines().count()).as(report).isLessThan(15);
    }

    @Test
    void aWrongPasswordFailsTheStartSayingSoWithoutThePassword(CapturedOutput output) {
        assertThatThrownBy(() -> start("--redkit.url=redis://:not-the-password@127.0.0.1:" + locked.port()))
                .isInstanceOf(Exception.class);

        String report = failureReport(output);
        assertThat(report).contains("Description:", "Check the user and password");
        assertThat(output.getAll()).doesNotContain("not-the-password");
    }

    @Test
    void noUrlFailsTheStartSayingWhereOneGoes(CapturedOutput output) {
        assertThatThrownBy(() -> start()).isInstanceOf(Exception.class);

        assertThat(failureReport(output)).contains("no Redis URL is set", "redkit.url", "REDIS_URL",
                "spring.data.redis.url");
    }

    @Test
    void springDataRedisSettingsAreUsedWhenRedkitHasNone(CapturedOutput output) {
        runner.withPropertyValues("spring.data.redis.url=" + redis.url()).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Redkit.class).commands().ping()).isNotNull();
        });
        assertThat(output.getAll()).contains("(from spring.data.redis.url)");
        runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + locked.port(),
                "spring.data.redis.password=s3cret").run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(Redkit.class).commands().ping();
                });
        assertThat(output.getAll()).contains("(from spring.data.redis.host)").doesNotContain("s3cret");
        // redkit.url wins over both.
        runner.withPropertyValues("redkit.url=" + redis.url(), "spring.data.redis.url=redis://127.0.0.1:1")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll()).contains("(from redkit.url)");
    }

    @Test
    void cachesWithoutEnableCachingLogAWarningAndWithItNone(CapturedOutput output) {
        String warning = "caching is not enabled";
        runner.withPropertyValues("redkit.url=" + redis.url(),
                "redkit.cache.caches.products.value-type=" + Products.Product.class.getName())
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll()).contains(warning);

        int before = output.getAll().length();
        runner.withUserConfiguration(Caching.class).withPropertyValues("redkit.url=" + redis.url(),
                "redkit.cache.caches.products.value-type=" + Products.Product.class.getName())
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll().substring(before)).doesNotContain(warning);
    }

    private static void start(String... args) {
        new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).run(args).close();
    }

    /** Spring Boot's failure report: from its banner line to the end of the output. */
    private static String failureReport(CapturedOutput output) {
        String all = output.getAll();
        int at = all.indexOf("APPLICATION FAILED TO START");
        assertThat(at).as("a failure analysis was printed:%n%s", all).isNotNegative();
        return all.substring(at);
    }
}
