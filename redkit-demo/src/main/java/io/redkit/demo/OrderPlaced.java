package io.redkit.demo;

/** The event an order puts on the {@code orders} stream once it is committed; the message key is the order id. */
public record OrderPlaced(long orderId, long productId, int quantity, long totalCents) {
}
