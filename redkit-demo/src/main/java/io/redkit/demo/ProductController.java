package io.redkit.demo;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code GET /products/{id}}, {@code GET /products?ids=1,2,3} (at most 100) and {@code PUT /products/{id}}. The
 * same reads are served under {@code /api/} behind the rate limit ({@link RateLimitInterceptor}).
 */
@RestController
public class ProductController {

    static final int MAX_BATCH = 100;

    private final ProductService products;

    public ProductController(ProductService products) {
        this.products = products;
    }

    /** The change a PUT asks for. */
    public record ProductUpdate(String name, Long priceCents) {
    }

    @GetMapping({"/products/{id}", "/api/products/{id}"})
    public Product get(@PathVariable("id") long id) {
        return products.get(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                "no product " + id));
    }

    /** The products found, in the order asked; ids not found are left out. */
    @GetMapping({"/products", "/api/products"})
    public List<Product> getAll(@RequestParam("ids") String ids) {
        List<Long> keys;
        try {
            keys = Arrays.stream(ids.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Long::valueOf)
                    .distinct().toList();
        } catch (NumberFormatException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ids must be numbers separated by commas");
        }
        if (keys.isEmpty() || keys.size() > MAX_BATCH) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ids: 1 to " + MAX_BATCH + " ids");
        }
        Map<Long, Product> found = products.getAll(keys);
        return keys.stream().filter(found::containsKey).map(found::get).toList();
    }

    @PutMapping("/products/{id}")
    public ResponseEntity<Product> update(@PathVariable("id") long id, @RequestBody ProductUpdate update) {
        if (update == null || update.name() == null || update.name().isBlank() || update.name().length() > 200
                || update.priceCents() == null || update.priceCents() < 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "name (1-200 characters) and priceCents (>= 0) are required");
        }
        if (!products.update(id, update.name(), update.priceCents())) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no product " + id);
        }
        return ResponseEntity.ok(products.get(id).orElseThrow());
    }
}
