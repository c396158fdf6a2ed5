package io.redkit.demo;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

/**
 * What every state-changing request ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) must pass before a
 * controller sees it.
 *
 * <ul>
 *   <li><b>Cross-site requests are refused (403, {@code cross-site-request}).</b> The session cookie is
 *       {@code SameSite=Lax}, which keeps it off cross-site POSTs in today's browsers but not in every browser, and
 *       not on a same-site page of another origin. So a browser's own word is checked too: a
 *       {@code Sec-Fetch-Site} other than {@code same-origin} or {@code none}, or an {@code Origin} other than this
 *       service's, is another site's page. Clients that are not browsers (curl, another service) send neither and
 *       pass. The second line is the body: every endpoint with one takes only {@code application/json}, which a
 *       cross-site HTML form cannot send without a CORS preflight that this service never grants.</li>
 *   <li><b>A body is at most {@link #MAX_BODY} bytes (413, {@code body-too-large}).</b> The largest legitimate
 *       body here is a product update of a few hundred bytes; a declared length over the cap is refused unread,
 *       and a chunked body is read up to the cap and refused at the first byte past it.</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class RequestGuard extends OncePerRequestFilter {

    /** The largest request body accepted: 16 KiB. */
    static final int MAX_BODY = 16 * 1024;

    private static final Set<String> UNSAFE = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> OWN_SITE = Set.of("same-origin", "none");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!UNSAFE.contains(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        String path = request.getRequestURI();
        String site = request.getHeader("Sec-Fetch-Site");
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        // A browser that sends Sec-Fetch-Site has said where the request comes from: that alone decides (it is
        // right behind a TLS-terminating proxy too, where this server sees http and the browser's Origin says
        // https). Only without it is Origin compared with this service's own.
        boolean crossSite = site != null ? !OWN_SITE.contains(site)
                : origin != null && !origin.equals(ownOrigin(request));
        if (crossSite) {
            Problems.write(response, ProblemType.CROSS_SITE_REQUEST, "a state-changing request must come from this "
                    + "service's own pages (Origin " + (origin == null ? "absent" : "'" + origin + "'")
                    + ", Sec-Fetch-Site " + (site == null ? "absent" : "'" + site + "'") + ")", path);
            return;
        }
        if (request.getContentLengthLong() > MAX_BODY) {
            tooLarge(response, path);
            return;
        }
        byte[] body = request.getInputStream().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            tooLarge(response, path);
            return;
        }
        chain.doFilter(new BufferedBody(request, body), response);
    }

    private static void tooLarge(HttpServletResponse response, String path) throws IOException {
        // The rest of the body is not read: the connection is closed after the answer instead of drained.
        response.setHeader(HttpHeaders.CONNECTION, "close");
        Problems.write(response, ProblemType.BODY_TOO_LARGE, "request bodies are limited to " + MAX_BODY + " bytes",
                path);
    }

    /** This service's origin as the browser sees it: scheme, host and the port unless it is the scheme's own. */
    private static String ownOrigin(HttpServletRequest request) {
        String scheme = request.getScheme();
        int port = request.getServerPort();
        boolean defaultPort = ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
        return scheme + "://" + request.getServerName() + (defaultPort ? "" : ":" + port);
    }

    /** The request with its body already read (at most {@link #MAX_BODY} bytes) and served from memory. */
    private static final class BufferedBody extends HttpServletRequestWrapper {

        private final byte[] body;

        BufferedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() throws IOException {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is already read");
                }
            };
        }

        @Override
        public BufferedReader getReader() throws UnsupportedEncodingException {
            String charset = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body),
                    charset == null ? StandardCharsets.UTF_8.name() : charset));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
