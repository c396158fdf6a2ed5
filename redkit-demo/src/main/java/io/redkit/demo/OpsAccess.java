package io.redkit.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Principal;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Who may see the health details: a caller with the operators' bearer token ({@code demo.ops.token}) is the
 * principal {@code ops} in role {@link #ROLE}, which Spring Boot's {@code show-details=when-authorized} asks the
 * request about. Everyone else, a load balancer included, sees the status alone. A servlet filter rather than
 * Spring Security: one static token for one endpoint does not need a security framework, and the demo's users
 * and sessions are its own (redkit-session).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class OpsAccess extends OncePerRequestFilter {

    /** The role of a caller with the token. */
    static final String ROLE = "OPS";
    private static final Principal OPS = () -> "ops";

    private final byte[] expected;

    public OpsAccess(DemoProperties properties) {
        String token = properties.ops().token();
        this.expected = token == null || token.isEmpty() ? null
                : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        boolean ops = expected != null && authorization != null
                && MessageDigest.isEqual(expected, authorization.getBytes(StandardCharsets.UTF_8));
        chain.doFilter(ops ? new Operator(request) : request, response);
    }

    private static final class Operator extends HttpServletRequestWrapper {

        Operator(HttpServletRequest request) {
            super(request);
        }

        @Override
        public Principal getUserPrincipal() {
            return OPS;
        }

        @Override
        public boolean isUserInRole(String role) {
            return ROLE.equals(role);
        }
    }
}
