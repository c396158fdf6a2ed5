package io.redkit.demo;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.redkit.cache.CacheAside;
import io.redkit.spring.SpringTransactions;

/**
 * Products read through the cache, written to the database. A read never fails because of Redis: the cache turns
 * a Redis error or an open breaker into a load from PostgreSQL. Concurrent misses of one product, in this instance
 * or across instances, load it once.
 */
@Service
public class ProductService {

    private final CacheAside<Long, Product> cache;
    private final ProductRepository repository;

    public ProductService(CacheAside<Long, Product> products, ProductRepository repository) {
        this.cache = products;
        this.repository = repository;
    }

    /** The product, or empty (a "not found" is cached briefly too). */
    public Optional<Product> get(long id) {
        return cache.get(id);
    }

    /** The products found among {@code ids}: one MGET, then one query for all the misses. */
    public Map<Long, Product> getAll(Collection<Long> ids) {
        return cache.getAll(ids);
    }

    /**
     * Updates the product in a transaction; its cache entry is deleted after the commit, so no reader can put
     * the old row back after the new one is visible (a read that loaded the old row before the commit holds the
     * fill lease that the invalidation revokes).
     *
     * @return false when there is no such product
     */
    @Transactional
    public boolean update(long id, String name, long priceCents) {
        if (!repository.update(id, name, priceCents)) {
            return false;
        }
        cache.invalidateAfterCommit(SpringTransactions.afterCommit(), List.of(id));
        return true;
    }
}
