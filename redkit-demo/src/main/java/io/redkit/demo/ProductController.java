package io.redkit.demo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /products/{id}}, {@code GET /products?ids=1,2,3} (at most 100) and {@code PUT /products/{id}} (an
 * {@code editor}'s session). The same reads are served under {@code /api/} behind the rate limit
 * ({@link RateLimitInterceptor}), where a batch costs one permit per id.
 */
@RestController
public class ProductController {

    static final int MAX_BATCH = 100;

    private final ProductService products;
    private final SignedIn signedIn;

    public ProductController(ProductService products, SignedIn signedIn) {
        this.products = products;
        this.signedIn = signedIn;
    }

    /** The change a PUT asks for. */
    public record ProductUpdate(String name, Long priceCents) {
    }

    @GetMapping({"/products/{id}", "/api/products/{id}"})
    public Product get(@PathVariable("id") long id) {
        return products.get(positive(id)).orElseThrow(() -> notFound(id));
    }

    /** The products found, in the order asked; ids not found are left out. */
    @GetMapping({"/products", "/api/products"})
    public List<Product> getAll(@RequestParam("ids") String ids) {
        List<Long> keys = parseIds(ids);
        Map<Long, Product> found = products.getAll(keys);
        return keys.stream().filter(found::containsKey).map(found::get).toList();
    }

    @PutMapping("/products/{id}")
    public ResponseEntity<Product> update(@PathVariable("id") long id, @RequestBody ProductUpdate update,
            @RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        signedIn.requireEditor(cookies);
        positive(id);
        if (update == null || update.name() == null || update.name().isBlank() || update.name().length() > 200) {
            throw ApiException.invalid("name", "name: 1 to 200 characters, not blank");
        }
        if (update.priceCents() == null || update.priceCents() < 0) {
            throw ApiException.invalid("priceCents", "priceCents: a whole number of cents, 0 or more");
        }
        if (!products.update(id, update.name(), update.priceCents())) {
            throw notFound(id);
        }
        return ResponseEntity.ok(products.get(id).orElseThrow());
    }

    /**
     * The distinct ids of an {@code ids} parameter, in the order given: 1 to {@value #MAX_BATCH} positive whole
     * numbers separated by commas.
     *
     * @throws ApiException {@code invalid-request} naming {@code ids} otherwise
     */
    static List<Long> parseIds(String ids) {
        Set<Long> keys = new LinkedHashSet<>();
        for (String part : ids.split(",", -1)) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            long id;
            try {
                id = Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw ApiException.invalid("ids", "ids: positive whole numbers separated by commas");
            }
            if (id < 1) {
                throw ApiException.invalid("ids", "ids: positive whole numbers separated by commas, not " + id);
            }
            keys.add(id);
            if (keys.size() > MAX_BATCH) {
                break;
            }
        }
        if (keys.isEmpty() || keys.size() > MAX_BATCH) {
            throw ApiException.invalid("ids", "ids: 1 to " + MAX_BATCH + " ids");
        }
        return new ArrayList<>(keys);
    }

    private static long positive(long id) {
        if (id < 1) {
            throw ApiException.invalid("id", "id: a positive whole number, not " + id);
        }
        return id;
    }

    private static ApiException notFound(long id) {
        return new ApiException(ProblemType.NOT_FOUND, "no product " + id);
    }
}
