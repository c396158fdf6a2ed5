package io.redkit.spring;

import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A product catalog behind {@code @Cacheable}, counting the calls that reach the "database". */
class Products {

    /** The cached value type. */
    static class Product {
        private long id;
        private String name;

        Product() {
        }

        Product(long id, String name) {
            this.id = id;
            this.name = name;
        }

        public long getId() { return id; }
        public void setId(long id) { this.id = id; }
        public String getName() { return name; }
        public void setName(String name) { this.name = name; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Product p && p.getClass() == getClass() && p.id == id && Objects.equals(p.name, name);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id);
        }
    }

    /** A subclass the cache must not remember as such: entries decode to the declared type only. */
    static class SpecialProduct extends Product {
        private String secret = "s";

        SpecialProduct(long id, String name) {
            super(id, name);
        }

        public String getSecret() { return secret; }
        public void setSecret(String secret) { this.secret = secret; }
    }

    /** The service whose methods Spring caches. */
    static class Catalog {
        private final AtomicInteger loads = new AtomicInteger();
        private volatile CountDownLatch gate = new CountDownLatch(0);

        /** How many calls reached the method (through a proxy: fields of the proxy are not the bean's). */
        public int loads() {
            return loads.get();
        }

        /** Holds the method's callers until {@code gate} opens. */
        public void hold(CountDownLatch value) {
            this.gate = value;
        }

        @Cacheable(cacheNames = "products", sync = true)
        public Product find(long id) throws InterruptedException {
            loads.incrementAndGet();
            gate.await();
            if (id < 0) {
                return null;
            }
            if (id == 13) {
                throw new IllegalStateException("the database refused id 13");
            }
            return id == 7 ? new SpecialProduct(id, "special") : new Product(id, "product " + id);
        }

        @Cacheable(cacheNames = "products")
        public Product findNotSync(long id) {
            loads.incrementAndGet();
            return new Product(id, "product " + id);
        }

        @CacheEvict(cacheNames = "products")
        public void update(long id) {
        }

        @Cacheable(cacheNames = "nope", sync = true)
        public Product fromAnUnknownCache(long id) {
            return new Product(id, "never");
        }
    }

    /** The application's configuration: caching on, and the catalog. */
    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class App {
        @Bean
        Catalog catalog() {
            return new Catalog();
        }
    }

    private Products() {
    }
}
