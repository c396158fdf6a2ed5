package io.redkit.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * RFC 9457 problem details, as {@code application/problem+json} in UTF-8: {@code type}, {@code title},
 * {@code status}, {@code detail}, {@code instance} (the request path) and, when one field is at fault,
 * {@code field}. Built as a plain map so that controllers, servlet filters and the Tomcat valve all write exactly
 * the same JSON.
 */
final class Problems {

    static final MediaType PROBLEM_JSON = MediaType.parseMediaType("application/problem+json;charset=UTF-8");
    private static final JsonMapper JSON = new JsonMapper();

    private Problems() {
    }

    static Map<String, Object> body(ProblemType type, int status, String detail, String path, String field) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.uri().toString());
        body.put("title", type.title());
        body.put("status", status);
        body.put("detail", detail);
        if (path != null) {
            body.put("instance", path);
        }
        if (field != null) {
            body.put("field", field);
        }
        return body;
    }

    /**
     * The problem as an answer with its type's status. Every 503 of ours is a moment's overload or outage, so it says
     * when to come back ({@code Retry-After: 1}).
     */
    static ResponseEntity<Object> entity(ProblemType type, String detail, String path, String field) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(type.status()).contentType(PROBLEM_JSON);
        if (type.status().value() == 503) {
            answer.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return answer.body(body(type, type.status().value(), detail, path, field));
    }

    /** Writes the problem on a response nothing has been written to yet, from a filter or an interceptor. */
    static void write(HttpServletResponse response, ProblemType type, String detail, String path) throws IOException {
        response.setStatus(type.status().value());
        response.setContentType(PROBLEM_JSON.toString());
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.getOutputStream().write(bytes(body(type, type.status().value(), detail, path, null)));
    }

    static byte[] bytes(Map<String, Object> body) {
        return JSON.writeValueAsBytes(body);
    }
}
