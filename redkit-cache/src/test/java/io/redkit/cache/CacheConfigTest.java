package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;

/**
 * The builder fails at once on a bad value and names it; no cache is built from a bad combination. Settings alone
 * ({@link CacheConfig#builder()}), so no server is needed.
 */
class CacheConfigTest {

    private static RedisCache.Builder<String, String> builder() {
        return CacheConfig.<String, String>builder().name("product").valueType(String.class)
                .loader(id -> Optional.of(id));
    }

    @Test
    void badValuesAreRefusedNamingThem() {
        assertThatThrownBy(() -> builder().name("has space")).hasMessageContaining("name").hasMessageContaining("has space");
        assertThatThrownBy(() -> builder().ttl(Duration.ZERO)).hasMessageContaining("ttl").hasMessageContaining("PT0S");
        assertThatThrownBy(() -> builder().ttlJitter(1.5)).hasMessageContaining("ttlJitter").hasMessageContaining("1.5");
        assertThatThrownBy(() -> builder().negativeTtl(Duration.ofSeconds(-1))).hasMessageContaining("negativeTtl");
        assertThatThrownBy(() -> builder().breakerProbes(Duration.ofMillis(5), 3))
                .hasMessageContaining("breaker probe interval");
        assertThatThrownBy(() -> builder().breakerProbes(Duration.ofMillis(200), 0)).hasMessageContaining("probesToClose");
        assertThatThrownBy(() -> builder().readFrom(null)).hasMessageContaining("readFrom");
        assertThatThrownBy(() -> builder().breakerWindow(1)).hasMessageContaining("breakerWindow").hasMessageContaining("1");
        assertThatThrownBy(() -> builder().nearCache(0, Duration.ofSeconds(1))).hasMessageContaining("near cache size");
        assertThatThrownBy(() -> builder().schemaVersion(70_000)).hasMessageContaining("70000");
        assertThatThrownBy(() -> builder().earlyRefreshBeta(Double.NaN)).hasMessageContaining("earlyRefreshBeta");
        assertThatThrownBy(() -> builder().maxValueBytes(10, LargeValuePolicy.SKIP)).hasMessageContaining("maxValueBytes");
    }

    @Test
    void badCombinationsAreRefusedAtBuild() {
        assertThatThrownBy(() -> CacheConfig.<String, String>builder().valueType(String.class)
                .loader(id -> Optional.empty()).build()).hasMessageContaining("name is required");
        assertThatThrownBy(() -> CacheConfig.<String, String>builder().name("x").valueType(String.class).build())
                .hasMessageContaining("loader");
        assertThatThrownBy(() -> builder().fillWait(Duration.ofSeconds(6)).build())
                .hasMessageContaining("fillWait").hasMessageContaining("fillLease");
        assertThatThrownBy(() -> builder().compressAbove(4096).maxValueBytes(1024, LargeValuePolicy.FAIL).build())
                .hasMessageContaining("compressAbove");
    }

    @Test
    void plainJsonWithCompressionOrASchemaVersionIsATypedConfigurationError() {
        assertThatThrownBy(() -> builder().format(CacheFormat.PLAIN_JSON).compressAbove(4096).config())
                .isInstanceOfSatisfying(CacheConfigException.class, e -> assertThat(e.settings())
                        .containsExactly("format(PLAIN_JSON)", "compressAbove"))
                .hasMessageContaining("cache 'product'");
        assertThatThrownBy(() -> builder().schemaVersion(2).format(CacheFormat.PLAIN_JSON).config())
                .isInstanceOfSatisfying(CacheConfigException.class, e -> assertThat(e.settings())
                        .containsExactly("format(PLAIN_JSON)", "schemaVersion"))
                .hasMessageContaining("key schema");
        assertThatThrownBy(() -> builder().format(null)).hasMessageContaining("format");
        // Version 1 is what every plain entry is read as: a configuration that passes it along (the starter) is fine.
        assertThat(builder().schemaVersion(1).format(CacheFormat.PLAIN_JSON).config().schemaVersion()).isEqualTo(1);
    }

    @Test
    void plainJsonStoresUncompressedUnderAnyLimit() {
        // The default compression threshold (16 KiB) is not a setting the user made: no conflict with a small limit.
        CacheConfig<String, String> config = builder().format(CacheFormat.PLAIN_JSON)
                .maxValueBytes(1024, LargeValuePolicy.SKIP).config();
        assertThat(config.format()).isEqualTo(CacheFormat.PLAIN_JSON);
        assertThat(config.compressAbove()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void settingsWithoutARedkitValidateButBuildNoCache() {
        assertThat(builder().config().name()).isEqualTo("product");
        assertThatThrownBy(() -> builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no Redkit");
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        CacheConfig<String, String> config = builder().config();
        assertThat(config.keySchema().namespace()).isEqualTo("cache.product");
        assertThat(config.ttl()).isEqualTo(CacheConfig.DEFAULT_TTL);
        assertThat(config.negativeTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.breakerProbeInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.breakerProbesToClose()).isEqualTo(3);
        assertThat(config.readFrom()).isEqualTo(ReadFrom.MASTER);
        assertThat(config.nearCacheSize()).isZero();
        assertThat(config.largeValuePolicy()).isEqualTo(LargeValuePolicy.SKIP);
        assertThat(config.format()).isEqualTo(CacheFormat.ENVELOPE);
    }
}
