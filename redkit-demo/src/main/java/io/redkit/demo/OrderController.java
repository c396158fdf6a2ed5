package io.redkit.demo;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /orders} with an {@code Idempotency-Key} header (1-200 visible ASCII characters): 201 for the request
 * that created the order, 200 with the same order (and {@code Idempotent-Replayed: true}) for a retry or a duplicate,
 * 422 when the key was used with another body.
 */
@RestController
public class OrderController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final OrderService orders;

    public OrderController(OrderService orders) {
        this.orders = orders;
    }

    /** The order asked for. */
    public record OrderRequest(Long productId, Integer quantity) {
    }

    @PostMapping("/orders")
    public ResponseEntity<Order> place(@RequestHeader(value = IDEMPOTENCY_KEY, required = false) String key,
            @RequestBody OrderRequest request) {
        if (key == null || !key.matches("[\\x21-\\x7e]{1,200}")) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "an Idempotency-Key header of 1-200 visible ASCII characters is required");
        }
        if (request == null || request.productId() == null || request.quantity() == null || request.quantity() < 1
                || request.quantity() > 1000) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "productId and quantity (1-1000) are required");
        }
        OrderService.Outcome outcome = orders.place(key, request.productId(), request.quantity());
        if (outcome instanceof OrderService.Outcome.Created c) {
            return ResponseEntity.created(URI.create("/orders/" + c.order().id())).body(c.order());
        }
        if (outcome instanceof OrderService.Outcome.Replayed r) {
            return ResponseEntity.ok().header("Idempotent-Replayed", "true").body(r.order());
        }
        if (outcome instanceof OrderService.Outcome.KeyReused) {
            throw new ResponseStatusException(HttpStatusCode.valueOf(422),
                    "this Idempotency-Key was used for another order");
        }
        throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no product " + request.productId());
    }
}
