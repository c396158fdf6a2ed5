package io.redkit.lab.bench.cache;

/**
 * The cached value of {@code bench cache}: a small product as a service would cache it, about 200 bytes of JSON
 * (money as integer minor units, DESIGN §4.13).
 *
 * @param id the product id (the cache key)
 * @param sku the stock-keeping unit
 * @param name the display name
 * @param description a short description
 * @param priceMinor the price in minor units (cents)
 * @param currency ISO 4217 code
 * @param stock units in stock
 * @param active whether it is on sale
 */
public record Product(long id, String sku, String name, String description, long priceMinor, String currency,
        int stock, boolean active) {
}
