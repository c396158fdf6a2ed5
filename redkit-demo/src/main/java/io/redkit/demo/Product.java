package io.redkit.demo;

import java.time.Instant;

/** A product as the catalogue, the cache and the API carry it. */
public record Product(long id, String name, long priceCents, Instant updatedAt) {
}
