package io.redkit.demo;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

import io.redkit.limit.Decision;
import io.redkit.limit.RateLimitHeaders;
import io.redkit.limit.RateLimiter;
import io.redkit.spring.RedkitLimiters;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The public API's rate limit, {@code redkit.limit.limiters.public-api}, per client: every answer under
 * {@code /api/} carries {@code RateLimit-*} headers; past the limit it is 429 ({@code rate-limited} problem details)
 * with {@code Retry-After}. A request costs one permit per product it reads: a batch of 30 ids takes 30, all or
 * none (a batch that needs more than what is left is refused whole), and a batch larger than the limit's capacity
 * could never pass and is a 400. The client is the connection's address: behind a proxy, take the address the
 * proxy vouches for (Tomcat's RemoteIpValve), never a header the client can set.
 */
@Component
public class RateLimitInterceptor implements HandlerInterceptor {

    /** Said in {@code RateLimit-Policy}, so that a client can tell what its requests cost. */
    static final String COST_COMMENT = ";comment=\"one permit per product read\"";

    private final RateLimiter limiter;
    private final AtomicLong allowed = new AtomicLong();
    private final AtomicLong limited = new AtomicLong();
    private final AtomicLong failedOpen = new AtomicLong();

    public RateLimitInterceptor(RedkitLimiters limiters) {
        this.limiter = limiters.get("public-api");
    }

    /** The decisions taken so far by this instance. */
    public record Counts(long allowed, long limited, long failedOpen) {
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        long cost = cost(request);
        Decision decision = limiter.tryAcquire(ClientAddress.of(request), cost);
        headers(decision).forEach(response::setHeader);
        if (decision.basis() == Decision.Basis.FAIL_OPEN) {
            failedOpen.incrementAndGet();
        }
        if (decision.allowed()) {
            allowed.incrementAndGet();
            return true;
        }
        limited.incrementAndGet();
        Problems.write(response, ProblemType.RATE_LIMITED, "this request costs " + cost + (cost == 1 ? " permit"
                : " permits") + "; try again in " + response.getHeader(RateLimitHeaders.RETRY_AFTER) + " s",
                request.getRequestURI());
        return false;
    }

    public Counts counts() {
        return new Counts(allowed.get(), limited.get(), failedOpen.get());
    }

    /**
     * One permit per product: the number of distinct ids of a batch read, else one. An {@code ids} that does not
     * parse costs one and is refused by the controller. Every {@code ids} parameter counts: Spring joins
     * {@code ?ids=1&ids=2,3} into one list for the controller, so the price must be taken from all of them.
     */
    private long cost(HttpServletRequest request) {
        String[] values = request.getParameterValues("ids");
        if (values == null) {
            return 1;
        }
        String ids = String.join(",", values);
        long cost;
        try {
            cost = ProductController.parseIds(ids).size();
        } catch (ApiException e) {
            return 1;
        }
        long capacity = limiter.config().capacity();
        if (cost > capacity) {
            throw ApiException.invalid("ids", "ids: the public API reads at most " + capacity
                    + " products per request (one permit each, and the limit holds " + capacity + ")");
        }
        return cost;
    }

    private static Map<String, String> headers(Decision decision) {
        Map<String, String> headers = new LinkedHashMap<>(RateLimitHeaders.of(decision));
        headers.computeIfPresent(RateLimitHeaders.POLICY, (k, v) -> v + COST_COMMENT);
        return headers;
    }
}
