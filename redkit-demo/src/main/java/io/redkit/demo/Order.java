package io.redkit.demo;

import java.time.Instant;

/** An order as the API returns it; {@code placedBy} is the account that placed it. */
public record Order(long id, String placedBy, long productId, int quantity, long totalCents, Instant createdAt) {
}
