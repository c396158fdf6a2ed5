package io.redkit.demo;

import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.redkit.session.SessionStoreUnavailableException;

/** The answers for failures the controllers do not handle themselves. */
@RestControllerAdvice
public class ApiErrors {

    /**
     * Sessions fail closed: Redis did not answer, so whether the caller is signed in is unknown. 503 with
     * Retry-After, never an anonymous answer or a 401 that would sign the user out.
     */
    @ExceptionHandler(SessionStoreUnavailableException.class)
    public ResponseEntity<Map<String, String>> sessionsUnavailable(SessionStoreUnavailableException e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
                .body(Map.of("error", "sessions are unavailable, try again shortly"));
    }
}
