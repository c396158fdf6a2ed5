package io.redkit.demo;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP/1.1 over a plain socket, for what the JDK's client cannot do on Java 17: send from another loopback address
 * (127.0.0.2, …), so that a test is a client of its own to the per-address limits, and send a request Tomcat
 * refuses before any servlet runs (an over-long header). One request per connection ({@code Connection: close}).
 */
final class RawHttp {

    /** An answer: status, headers (names lower-cased) and the body, de-chunked. */
    record Answer(int status, Map<String, List<String>> headers, String body) {

        Optional<String> header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? Optional.empty() : Optional.of(values.get(0));
        }
    }

    private RawHttp() {
    }

    /** Sends {@code method path} to 127.0.0.1:{@code port} from {@code from}, with {@code headers} as name, value. */
    static Answer send(int port, String from, String method, String path, String body, String... headers) {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n");
        for (int i = 0; i < headers.length; i += 2) {
            request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        if (body != null) {
            request.append("Content-Length: ").append(content.length).append("\r\n");
        }
        request.append("\r\n");
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(from), 0)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " from " + from, e);
        }
    }

    private static Answer parse(byte[] raw) throws IOException {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete response: " + all);
        }
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            headers.computeIfAbsent(name, k -> new ArrayList<>()).add(lines[i].substring(colon + 1).trim());
        }
        byte[] body = Arrays.copyOfRange(raw, end + 4, raw.length);
        if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
            body = dechunk(new ByteArrayInputStream(body));
        }
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            StringBuilder size = new StringBuilder();
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    return out.toByteArray();
                }
                if (c != '\r') {
                    size.append((char) c);
                }
            }
            int n = Integer.parseInt(size.toString().split(";")[0].trim(), 16);
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(n));
            in.readNBytes(2);
        }
    }
}
