package io.redkit.demo;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * Tomcat's error page, for what Tomcat refuses before any servlet runs (a header or request line over the size
 * limit, a malformed request): problem details in place of its HTML page, which would be the one answer of the
 * service that is not JSON. Says only the status; Tomcat's own report (with its version) is never shown.
 */
public class ProblemReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // As Tomcat's own report: only an error status, nothing written yet, reported once, and IO still allowed.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        ProblemType type = ProblemType.forStatus(status);
        String detail = type == ProblemType.BAD_HTTP_REQUEST
                ? "the request is malformed or a header, the URL or the query is too long"
                : type == ProblemType.HTTP_ERROR ? "HTTP status " + status : type.title();
        try {
            response.setContentType(Problems.PROBLEM_JSON.toString());
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer == null) {
                return; // the response cannot take a report (a writer or stream is already in use)
            }
            writer.write(new String(Problems.bytes(Problems.body(type, status, detail, null, null)),
                    StandardCharsets.UTF_8));
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response cannot take a body any more: nothing more to say.
        }
    }
}
