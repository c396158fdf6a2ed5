package io.redkit.demo;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
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
 * {@code /api/} carries {@code RateLimit-*} headers; past the limit it is 429 with {@code Retry-After}. The client
 * is the connection's address: behind a proxy, take the address the proxy vouches for (Tomcat's RemoteIpValve),
 * never a header the client can set.
 */
@Component
public class RateLimitInterceptor implements HandlerInterceptor {

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
            throws java.io.IOException {
        Decision decision = limiter.tryAcquire(request.getRemoteAddr());
        RateLimitHeaders.of(decision).forEach(response::setHeader);
        if (decision.basis() == Decision.Basis.FAIL_OPEN) {
            failedOpen.incrementAndGet();
        }
        if (decision.allowed()) {
            allowed.incrementAndGet();
            return true;
        }
        limited.incrementAndGet();
        response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getWriter().write("{\"error\":\"rate limit exceeded\",\"retryAfterSeconds\":"
                + response.getHeader(RateLimitHeaders.RETRY_AFTER) + "}");
        return false;
    }

    public Counts counts() {
        return new Counts(allowed.get(), limited.get(), failedOpen.get());
    }
}
