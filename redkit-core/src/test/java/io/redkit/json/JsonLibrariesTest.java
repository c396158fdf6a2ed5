package io.redkit.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * An upgrade from Jackson 2 to Jackson 3 must not empty the cache or sign anyone out: redkit's defaults write the
 * same bytes through either library, and each reads the other's (and what earlier releases wrote).
 */
class JsonLibrariesTest {

    enum Status {
        ON_SALE, WITHDRAWN;

        @Override
        public String toString() {
            return name().toLowerCase().replace('_', ' ');
        }
    }

    record Product(long id, String name, BigDecimal price, long priceMinor, Status status, Instant updatedAt,
            LocalDate launched, OffsetDateTime promoEnds, Duration warranty, List<String> tags,
            Map<String, Integer> stock) {

        Product withPromoEnds(OffsetDateTime ends) {
            return new Product(id, name, price, priceMinor, status, updatedAt, launched, ends, warranty, tags, stock);
        }
    }

    private static final Product PRODUCT = new Product(42, "Kettle \u2014 1.7 l", new BigDecimal("19.90"), 1990,
            Status.ON_SALE, Instant.parse("2026-12-06T14:07:01.123456Z"), LocalDate.of(2026, 3, 1),
            OffsetDateTime.of(2026, 12, 24, 18, 0, 0, 0, ZoneOffset.ofHours(3)), Duration.ofDays(730),
            List.of("kitchen", "sale"), Map.of("warehouse-1", 3));

    private final Json jackson2 = Jackson2Json.redkitDefaults();
    private final Json jackson3 = Jackson3Json.redkitDefaults();

    @Test
    void bothLibrariesWriteTheSameBytes() throws Exception {
        byte[] by2 = jackson2.<Product>bind(Product.class).write(PRODUCT);
        byte[] by3 = jackson3.<Product>bind(Product.class).write(PRODUCT);

        assertThat(new String(by3, StandardCharsets.UTF_8)).isEqualTo(new String(by2, StandardCharsets.UTF_8));
        assertThat(new String(by2, StandardCharsets.UTF_8))
                .startsWith("{\"id\":42,\"name\":")
                .contains("\"status\":\"ON_SALE\"", "\"updatedAt\":\"2026-12-06T14:07:01.123456Z\"",
                        "\"launched\":\"2026-03-01\"", "\"warranty\":\"PT17520H\"");
    }

    @Test
    void eachReadsWhatTheOtherWrote() throws Exception {
        JsonBinding<Product> two = jackson2.bind(Product.class);
        JsonBinding<Product> three = jackson3.bind(Product.class);

        assertThat(three.read(two.write(PRODUCT))).isEqualTo(PRODUCT);
        assertThat(two.read(three.write(PRODUCT))).isEqualTo(PRODUCT);
    }

    @Test
    void whatAnEarlierReleaseWroteIsStillRead() throws Exception {
        // The previous default: Jackson 2 with java.time registered and its own defaults (epoch numbers, arrays).
        var earlier = new com.fasterxml.jackson.databind.ObjectMapper().findAndRegisterModules();
        byte[] old = earlier.writeValueAsBytes(PRODUCT);
        assertThat(new String(old, StandardCharsets.UTF_8)).contains("\"updatedAt\":1796566021.123456000");

        // An epoch number carries no offset: the time comes back in UTC, the same instant.
        Product inUtc = PRODUCT.withPromoEnds(PRODUCT.promoEnds().withOffsetSameInstant(ZoneOffset.UTC));
        assertThat(jackson3.<Product>bind(Product.class).read(old)).isEqualTo(inUtc);
        assertThat(jackson2.<Product>bind(Product.class).read(old)).isEqualTo(inUtc);
    }

    @Test
    void aPropertyThisReleaseDoesNotKnowIsIgnoredByBoth() throws Exception {
        byte[] newer = "{\"id\":7,\"name\":\"x\",\"addedByTheNextRelease\":true}".getBytes(StandardCharsets.UTF_8);

        assertThat(jackson2.<Product>bind(Product.class).read(newer).id()).isEqualTo(7);
        assertThat(jackson3.<Product>bind(Product.class).read(newer).id()).isEqualTo(7);
    }

    @Test
    void anApplicationsMapperIsUsedAsItIsConfigured() throws Exception {
        var snake = tools.jackson.databind.json.JsonMapper.builder()
                .propertyNamingStrategy(tools.jackson.databind.PropertyNamingStrategies.SNAKE_CASE).build();
        Json json = Jackson3Json.of(snake);

        String written = new String(json.<Product>bind(Product.class).write(PRODUCT), StandardCharsets.UTF_8);

        assertThat(written).contains("\"price_minor\":1990");
        assertThat(json.describe()).startsWith("Jackson 3.").endsWith("(the application's mapper)");
    }

    @Test
    void theDefaultIsJackson3WhenBothArePresent() {
        assertThat(Json.defaults().describe()).startsWith("Jackson 3.").endsWith("(redkit's mapper)");
    }
}
