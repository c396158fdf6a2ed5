package io.redkit.demo;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The products in PostgreSQL. Every query it sends is counted ({@code demo.db.product.queries}, and on the ops
 * page): that count is how the tests and {@code lab cold-cache} see what the cache keeps off the database.
 */
@Repository
public class ProductRepository {

    private static final String COLUMNS = "id, name, price_cents, updated_at";

    private final JdbcTemplate jdbc;
    private final AtomicLong queries = new AtomicLong();

    public ProductRepository(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        meters.more().counter("demo.db.product.queries", List.of(), queries);
    }

    /** The product, or empty. One query. */
    public Optional<Product> find(long id) {
        queries.incrementAndGet();
        return jdbc.query("SELECT " + COLUMNS + " FROM products WHERE id = ?", ProductRepository::product, id)
                .stream().findFirst();
    }

    /** The products found among {@code ids}, by id. One query, whatever the number of ids. */
    public Map<Long, Product> findAll(Collection<Long> ids) {
        queries.incrementAndGet();
        Map<Long, Product> found = new LinkedHashMap<>();
        jdbc.query("SELECT " + COLUMNS + " FROM products WHERE id = ANY (?)", ps -> ps.setArray(1,
                ps.getConnection().createArrayOf("bigint", ids.toArray())), rs -> {
                    Product p = product(rs, 0);
                    found.put(p.id(), p);
                });
        return found;
    }

    /** Sets the name and price of {@code id}; false when there is no such product. Run in the caller's transaction. */
    public boolean update(long id, String name, long priceCents) {
        queries.incrementAndGet();
        return jdbc.update("UPDATE products SET name = ?, price_cents = ?, updated_at = now() WHERE id = ?", name,
                priceCents, id) == 1;
    }

    /** The queries sent so far by this instance. */
    public long queries() {
        return queries.get();
    }

    private static Product product(ResultSet rs, int row) throws SQLException {
        return new Product(rs.getLong("id"), rs.getString("name"), rs.getLong("price_cents"),
                rs.getTimestamp("updated_at").toInstant());
    }
}
