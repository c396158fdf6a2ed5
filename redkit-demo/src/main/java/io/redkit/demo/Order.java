package io.redkit.demo;

import java.time.Instant;

/** An order as the API returns it. */
public record Order(long id, long productId, int quantity, long totalCents, Instant createdAt) {
}
