package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BuilderValidationTest {

    @Test
    void badSettingsFailFastNamingTheValue() {
        assertThatThrownBy(() -> RedisServer.builder().port(80)).hasMessageContaining("80");
        assertThatThrownBy(() -> RedisServer.builder().arg("dir", "/x")).hasMessageContaining("'dir'");
        assertThatThrownBy(() -> RedisCluster.builder().masters(0)).hasMessageContaining("masters").hasMessageContaining("0");
        assertThatThrownBy(() -> RedisCluster.builder().nodeTimeout(Duration.ZERO)).hasMessageContaining("nodeTimeout");
        assertThatThrownBy(() -> RedisSentinelGroup.builder().masterName("has space")).hasMessageContaining("has space");
        assertThatThrownBy(() -> RedisSentinelGroup.builder().sentinels(1).quorum(2).start()).hasMessageContaining("quorum 2");
    }

    @Test
    void extensionUsedOutsideATestSaysHowToRegisterIt() {
        assertThatThrownBy(() -> RedisServerExtension.standalone().server()).hasMessageContaining("@RegisterExtension");
    }
}
