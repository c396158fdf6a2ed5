package io.redkit.demo;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * Every kind of error the service answers, each with a stable {@code type} (RFC 9457) that clients may switch on;
 * the README lists them. The types are {@code tag:} URIs, the form RFC 9457 recommends for types that are not
 * meant to be fetched.
 */
public enum ProblemType {

    /** A field or parameter is missing or out of range; {@code field} names it. */
    INVALID_REQUEST("invalid-request", HttpStatus.BAD_REQUEST, "The request is not valid"),
    /** The body is not JSON of the expected shape: a wrong type, a coerced number, an unknown property. */
    MALFORMED_BODY("malformed-body", HttpStatus.BAD_REQUEST, "The request body cannot be read"),
    /** The request is malformed at the HTTP level (Tomcat refused it: a header or the request line too long). */
    BAD_HTTP_REQUEST("bad-http-request", HttpStatus.BAD_REQUEST, "The HTTP request is malformed"),
    /** No live session: sign in first. */
    SIGN_IN_REQUIRED("sign-in-required", HttpStatus.UNAUTHORIZED, "Sign in first"),
    /** Wrong username or password. */
    BAD_CREDENTIALS("bad-credentials", HttpStatus.UNAUTHORIZED, "Wrong username or password"),
    /** Signed in, but the account's role may not do this. */
    FORBIDDEN("forbidden", HttpStatus.FORBIDDEN, "Not allowed for this account"),
    /** A state-changing request sent by another site's page (CSRF). */
    CROSS_SITE_REQUEST("cross-site-request", HttpStatus.FORBIDDEN, "Cross-site request refused"),
    /** No such resource (a product, a path). */
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not found"),
    /** The path exists, the method does not. */
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    /** The client accepts no representation this endpoint has. */
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    /** The body is larger than the endpoint takes. */
    BODY_TOO_LARGE("body-too-large", HttpStatus.CONTENT_TOO_LARGE, "The request body is too large"),
    /** The body is not {@code application/json}. */
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE,
            "The request body must be application/json"),
    /** The Idempotency-Key was used for another request body. */
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", HttpStatus.UNPROCESSABLE_CONTENT,
            "Idempotency-Key used for another request"),
    /** Past a rate limit; {@code Retry-After} says when to try again. */
    RATE_LIMITED("rate-limited", HttpStatus.TOO_MANY_REQUESTS, "Too many requests"),
    /** Redis does not answer, so whether the caller is signed in (or may try to) is unknown. */
    SESSIONS_UNAVAILABLE("sessions-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Sessions are unavailable"),
    /** Too many sign-ins are being checked at once; {@code Retry-After} says when to try again. */
    SIGN_IN_BUSY("sign-in-busy", HttpStatus.SERVICE_UNAVAILABLE, "Too many sign-ins at once"),
    /** A status no other type names (a timeout, a length required, a version not supported), raised by Tomcat. */
    HTTP_ERROR("http-error", HttpStatus.BAD_REQUEST, "HTTP error"),
    /** Any other failure of the service; the detail says no more than that (the log has the rest). */
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    private static final String PREFIX = "tag:redkit.io,2026:problems/";

    private final String slug;
    private final HttpStatus status;
    private final String title;

    ProblemType(String slug, HttpStatus status, String title) {
        this.slug = slug;
        this.status = status;
        this.title = title;
    }

    /** The {@code type} member. */
    public URI uri() {
        return URI.create(PREFIX + slug);
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The type for a status that no handler of ours gave a type to (a status Spring or Tomcat chose). */
    static ProblemType forStatus(int status) {
        return switch (status) {
            case 400 -> BAD_HTTP_REQUEST;
            case 401 -> SIGN_IN_REQUIRED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> BODY_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 429 -> RATE_LIMITED;
            case 500 -> INTERNAL_ERROR;
            default -> HTTP_ERROR;
        };
    }
}
