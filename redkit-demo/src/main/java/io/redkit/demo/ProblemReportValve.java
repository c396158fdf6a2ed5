package io.redkit.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's error page, for what Tomcat refuses before any servlet runs (a header or request line over the size
 * limit, a malformed request): problem details in place of its HTML page, which would be the one answer of the
 * service that is not JSON. Says only the status; Tomcat's own report (with its version) is never shown.
 */
public class ProblemReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemType type = ProblemType.forStatus(status);
        String detail = type == ProblemType.BAD_HTTP_REQUEST
                ? "the request is malformed or a header, the URL or the query is too long" : type.title();
        try {
            response.setContentType(Problems.PROBLEM_JSON.toString());
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getOutputStream().write(Problems.bytes(Problems.body(type, status, detail, null, null)));
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response cannot take a body any more: nothing more to say.
        }
    }
}
