package io.redkit.demo;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

/**
 * {@code /error}, where the servlet container forwards what no controller answered (a {@code sendError}, an
 * exception thrown in a filter): the same problem details as {@link ApiErrors}, in place of Spring Boot's
 * {@code {"timestamp","status","error","path"}}.
 */
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<Object> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (code == null) {
            // Asked for directly, not forwarded by the container: there is no such resource.
            return Problems.entity(ProblemType.NOT_FOUND, ProblemType.NOT_FOUND.title(), request.getRequestURI(), null);
        }
        int status = code instanceof Integer i && i >= 400 ? i : 500;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        ProblemType type = ProblemType.forStatus(status);
        String detail = type == ProblemType.INTERNAL_ERROR ? "the service failed to answer; it has been logged"
                : type == ProblemType.HTTP_ERROR ? "HTTP status " + status : type.title();
        return ResponseEntity.status(status).contentType(Problems.PROBLEM_JSON)
                .body(Problems.body(type, status, detail, uri == null ? null : uri.toString(), null));
    }
}
