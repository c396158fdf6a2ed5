package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.redkit.RedkitConfig;

/** What fails before any connection: no URL, a URL that is no URL, and the password in messages. */
class StartWithoutRedisTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class));

    @Test
    void missingUrlFailsWithOneClearMessage() {
        assumeTrue(System.getenv(RedkitConfig.ENV_REDIS_URL) == null, "REDIS_URL is set in this environment");
        runner.run(context -> {
            assertThat(context).hasFailed();
            assertThat(RedkitAutoConfigurationIT.rootCause(context.getStartupFailure()))
                    .isInstanceOf(IllegalStateException.class).hasMessage(ClientSettings.NO_URL);
        });
    }

    @Test
    void blankUrlIsNoUrl() {
        assumeTrue(System.getenv(RedkitConfig.ENV_REDIS_URL) == null, "REDIS_URL is set in this environment");
        runner.withPropertyValues("redkit.url= ", "REDIS_URL=").run(context ->
                assertThat(RedkitAutoConfigurationIT.rootCause(context.getStartupFailure()))
                        .hasMessage(ClientSettings.NO_URL));
    }

    @Test
    void aUrlThatIsNoUrlFailsWithoutShowingItsPassword() {
        runner.withPropertyValues("redkit.url=redis://app:hunter2@127.0.0.1:notaport").run(context -> {
            assertThat(context).hasFailed();
            assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure())).contains("port")
                    .doesNotContain("hunter2");
        });
    }

    @Test
    void propertiesNeverShowThePassword() {
        RedkitProperties properties = new RedkitProperties();
        properties.setUrl("redis://app:hunter2@127.0.0.1:6380/2");
        assertThat(properties.toString()).contains("redis://app:****@127.0.0.1:6380/2").doesNotContain("hunter2");
        properties.setUrl("redis://app:hunter2@");
        assertThat(properties.toString()).doesNotContain("hunter2");
    }
}
