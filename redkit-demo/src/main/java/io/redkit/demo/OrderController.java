package io.redkit.demo;

import java.net.URI;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /orders}, by a signed-in account, with an {@code Idempotency-Key} header (1-200 visible ASCII
 * characters, the account's own): 201 for the request that created the order, 200 with the same order (and
 * {@code Idempotent-Replayed: true}) for a retry or a duplicate, 422 when the key was used with another body.
 */
@RestController
public class OrderController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final OrderService orders;
    private final SignedIn signedIn;

    public OrderController(OrderService orders, SignedIn signedIn) {
        this.orders = orders;
        this.signedIn = signedIn;
    }

    /** The order asked for. */
    public record OrderRequest(Long productId, Integer quantity) {
    }

    @PostMapping("/orders")
    public ResponseEntity<Order> place(@RequestHeader(value = IDEMPOTENCY_KEY, required = false) String key,
            @RequestBody OrderRequest request,
            @RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        String account = signedIn.require(cookies).userId();
        if (key == null || !key.matches("[\\x21-\\x7e]{1,200}")) {
            throw ApiException.invalid(IDEMPOTENCY_KEY,
                    "an Idempotency-Key header of 1-200 visible ASCII characters is required");
        }
        if (request == null || request.productId() == null || request.productId() < 1) {
            throw ApiException.invalid("productId", "productId: a positive whole number is required");
        }
        if (request.quantity() == null || request.quantity() < 1 || request.quantity() > 1000) {
            throw ApiException.invalid("quantity", "quantity: a whole number from 1 to 1000 is required");
        }
        OrderService.Outcome outcome = orders.place(account, key, request.productId(), request.quantity());
        if (outcome instanceof OrderService.Outcome.Created c) {
            return ResponseEntity.created(URI.create("/orders/" + c.order().id())).body(c.order());
        }
        if (outcome instanceof OrderService.Outcome.Replayed r) {
            return ResponseEntity.ok().header("Idempotent-Replayed", "true").body(r.order());
        }
        if (outcome instanceof OrderService.Outcome.KeyReused) {
            throw new ApiException(ProblemType.IDEMPOTENCY_KEY_REUSED,
                    "this Idempotency-Key was used for another order", IDEMPOTENCY_KEY);
        }
        throw new ApiException(ProblemType.NOT_FOUND, "no product " + request.productId());
    }
}
