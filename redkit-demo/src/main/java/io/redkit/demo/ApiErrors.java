package io.redkit.demo;

import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.redkit.session.SessionStoreUnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Every error a controller or Spring MVC raises, as RFC 9457 problem details ({@link Problems}): our own
 * {@link ApiException}s with their type and field, Spring's own (a missing parameter, an unreadable body, a wrong
 * method or media type) mapped to the types the README lists, and anything else as a 500 whose detail says
 * nothing of the cause (the log does). Errors that never reach a controller are answered by
 * {@link ProblemErrorController} and, for what Tomcat refuses itself, {@link ProblemReportValve}.
 */
@RestControllerAdvice
public class ApiErrors extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

    @ExceptionHandler(ApiException.class)
    public ResponseEntity<Object> api(ApiException e, HttpServletRequest request) {
        return Problems.entity(e.type(), e.getMessage(), request.getRequestURI(), e.field());
    }

    /**
     * Sessions fail closed: Redis did not answer, so whether the caller is signed in is unknown. 503 with
     * Retry-After, never an anonymous answer or a 401 that would sign the user out.
     */
    @ExceptionHandler(SessionStoreUnavailableException.class)
    public ResponseEntity<Object> sessionsUnavailable(SessionStoreUnavailableException e, HttpServletRequest request) {
        return Problems.entity(ProblemType.SESSIONS_UNAVAILABLE, "sessions are unavailable, try again shortly",
                request.getRequestURI(), null);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<Object> typeMismatch(MethodArgumentTypeMismatchException e, HttpServletRequest request) {
        return Problems.entity(ProblemType.INVALID_REQUEST, e.getName() + ": not a valid value", request.getRequestURI(),
                e.getName());
    }

    @ExceptionHandler(Exception.class)
    public ResponseEntity<Object> unexpected(Exception e, HttpServletRequest request) {
        log.error("{} {} failed", request.getMethod(), request.getRequestURI(), e);
        return Problems.entity(ProblemType.INTERNAL_ERROR, "the service failed to answer; it has been logged",
                request.getRequestURI(), null);
    }

    /** Spring MVC's own exceptions, each with the status Spring chose and the headers it set (Allow, Accept). */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        if (request instanceof ServletWebRequest web && web.getResponse() != null
                && web.getResponse().isCommitted()) {
            return null; // too late for any answer: the response has begun
        }
        String path = request instanceof ServletWebRequest web ? web.getRequest().getRequestURI() : null;
        if (status.is5xxServerError()) {
            log.error("{} failed with {}", path, status, e);
        }
        ProblemType type = ProblemType.forStatus(status.value());
        String detail = type.title();
        String field = null;
        if (e instanceof MissingServletRequestParameterException m) {
            type = ProblemType.INVALID_REQUEST;
            detail = m.getParameterName() + ": required";
            field = m.getParameterName();
        } else if (e instanceof MissingRequestHeaderException m) {
            type = ProblemType.INVALID_REQUEST;
            detail = m.getHeaderName() + " header: required";
        } else if (e instanceof HttpMessageNotReadableException m) {
            type = ProblemType.MALFORMED_BODY;
            detail = unreadable(m);
            field = fieldOf(m);
        } else if (type == ProblemType.BAD_HTTP_REQUEST) {
            type = ProblemType.INVALID_REQUEST;
        }
        return ResponseEntity.status(status).headers(headers).contentType(Problems.PROBLEM_JSON)
                .body(Problems.body(type, status.value(), detail, path, field));
    }

    /** What is wrong with the body, without the Java types Jackson's own messages name. */
    private static String unreadable(HttpMessageNotReadableException e) {
        Throwable cause = e.getCause();
        String field = fieldOf(e);
        if (cause instanceof UnrecognizedPropertyException u) {
            return "unknown property '" + u.getPropertyName() + "'";
        }
        if (cause instanceof MismatchedInputException m && field != null) {
            Class<?> target = m.getTargetType();
            String expected = target == null ? "a value of another type"
                    : Number.class.isAssignableFrom(target) || target.isPrimitive() ? "a whole number, not a string "
                            + "or a fraction" : target == String.class ? "a string" : "a value of another type";
            return field + ": " + expected;
        }
        if (cause instanceof StreamReadException) {
            return "the body is not valid JSON";
        }
        return "a JSON object is required";
    }

    private static String fieldOf(HttpMessageNotReadableException e) {
        if (e.getCause() instanceof DatabindException d && !d.getPath().isEmpty()) {
            return d.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName()
                    : "[" + r.getIndex() + "]").collect(Collectors.joining("."));
        }
        return null;
    }
}
