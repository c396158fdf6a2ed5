package io.redkit.testing.internal;

import io.redkit.testing.RedisReplyException;
import io.redkit.testing.RedisTestingException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 connection for admin commands.
 *
 * <p>Admin traffic uses a plain socket rather than a Lettuce client because it must work against
 * paused servers (a socket timeout, no event loop stuck), against sentinels and against the embedded
 * 6.2 binary alike, and it must cost nothing to open one per command.
 */
public final class RespConnection implements Closeable {

    private static final Duration MAX_CONNECT = Duration.ofSeconds(2);

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream());
        this.in = new BufferedInputStream(socket.getInputStream());
    }

    /** Opens a connection whose connect and read operations each give up after {@code timeout}. */
    public static RespConnection open(String host, int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            Duration connect = timeout.compareTo(MAX_CONNECT) < 0 ? timeout : MAX_CONNECT;
            socket.connect(new InetSocketAddress(host, port), (int) connect.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            return new RespConnection(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Runs one command on a fresh connection (authenticating first when credentials are given) and closes it.
     *
     * @param raw whether bulk strings come back as {@code byte[]} instead of UTF-8 strings
     * @param args command and arguments, each a {@code String} or {@code byte[]}
     */
    public static Object exec(String host, int port, Credentials credentials, Duration timeout, boolean raw, Object... args) {
        try (RespConnection connection = open(host, port, timeout)) {
            if (credentials != null) {
                connection.call(false, credentials.authCommand());
            }
            return connection.call(raw, args);
        } catch (IOException e) {
            throw new RedisTestingException("Cannot run " + args[0] + " on " + host + ":" + port + ": " + e, e);
        }
    }

    /** Sends one command and reads its reply: String, Long, List, byte[] (raw bulk) or null; errors are thrown. */
    public Object call(boolean raw, Object... args) throws IOException {
        write(args);
        return read(raw);
    }

    /** Sends one command without reading its reply, for commands that answer with a stream (MONITOR). */
    public void send(Object... args) throws IOException {
        write(args);
    }

    /** Reads the next reply or pushed line: what {@link #call} returns. */
    public Object next(boolean raw) throws IOException {
        return read(raw);
    }

    /** Sets how long a read waits before it fails; zero waits for ever (a stream read until the socket closes). */
    public void readTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
    }

    private void write(Object[] args) throws IOException {
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object arg : args) {
            byte[] bytes = arg instanceof byte[] b ? b : String.valueOf(arg).getBytes(StandardCharsets.UTF_8);
            out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
    }

    private Object read(boolean raw) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by server");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new RedisReplyException(line);
            case ':':
                return Long.parseLong(line);
            case '$':
                return readBulk(Integer.parseInt(line), raw);
            case '*':
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read(raw));
                }
                return items;
            default:
                throw new IOException("unexpected RESP type byte " + type);
        }
    }

    private Object readBulk(int length, boolean raw) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length || in.read() != '\r' || in.read() != '\n') {
            throw new EOFException("truncated bulk reply");
        }
        return raw ? bytes : new String(bytes, StandardCharsets.UTF_8);
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("connection closed mid-reply");
            }
            line.append((char) c);
        }
        if (in.read() != '\n') {
            throw new IOException("malformed reply line");
        }
        return line.toString();
    }

    /** Closes the socket. */
    @Override
    public void close() throws IOException {
        socket.close();
    }
}
