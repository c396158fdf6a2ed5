package io.redkit.testing;

import io.redkit.testing.internal.RespConnection;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The commands a set of servers ran while the log was open, told apart by the client that sent them, so that a
 * test counts only what its own client sent however busy the servers are.
 *
 * <p>Server-wide counters ({@code INFO commandstats}, {@code DBSIZE}) also count what an earlier test left
 * running, a topology refresh or a background task of another store, and a test asserting on them fails once in
 * a while. This log reads each server's {@code MONITOR} stream instead and keeps the connection address of every
 * command; a client is recognised by its name ({@code CLIENT SETNAME}, or {@code HELLO … SETNAME}, which Lettuce
 * sends for {@code RedkitConfig.clientName}), taken from {@code CLIENT LIST} and from the stream itself, so a
 * connection that opened and closed inside the window counts too. Commands a script runs are shown by Redis as
 * sent by {@code lua}; they count for the client whose script ran them.
 *
 * <pre>{@code
 * try (CommandLog log = CommandLog.start(deployment.masters())) {
 *     store.create(user, tooLarge);      // refused before Redis
 *     assertThat(log.dataCommandsOf(clientName)).isEmpty();
 * }
 * }</pre>
 *
 * <p>Every read of the log first waits until each server's stream has caught up with the moment of the call (an
 * {@code ECHO} marker sent to it is seen), so a command that returned before the call is always counted. A server
 * killed or restarted while the log is open ends its stream, and the next read fails saying so.
 */
public final class CommandLog implements AutoCloseable {

    /** Commands of connection setup, topology discovery and tests' own admin calls: not data commands. */
    public static final Set<String> ADMIN_COMMANDS = Set.of("auth", "hello", "client", "select", "readonly",
            "readwrite", "ping", "echo", "info", "config", "cluster", "command", "role", "sentinel", "quit",
            "monitor", "reset", "script");

    private static final Set<String> SCRIPT_CALLS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall",
            "fcall_ro");
    private static final Duration CATCH_UP = Duration.ofSeconds(10);
    private static final AtomicLong IDS = new AtomicLong();

    private final List<ServerStream> streams;

    private CommandLog(List<ServerStream> streams) {
        this.streams = streams;
    }

    /**
     * Starts logging on each server: once this returns, every command they run is recorded.
     *
     * @throws RedisTestingException when a server cannot be reached or refuses {@code MONITOR}
     */
    public static CommandLog start(Collection<RedisServer> servers) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("CommandLog needs at least one server");
        }
        List<ServerStream> streams = new ArrayList<>();
        try {
            for (RedisServer server : servers) {
                streams.add(ServerStream.open(server));
            }
        } catch (RuntimeException e) {
            streams.forEach(ServerStream::close);
            throw e;
        }
        return new CommandLog(List.copyOf(streams));
    }

    /** Returns a client name no other test uses, for {@code RedkitConfig.clientName} and {@link #commandsOf}. */
    public static String uniqueClientName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8) + "-" + IDS.incrementAndGet();
    }

    /**
     * Returns command name (lower case, for example {@code get} or {@code evalsha}) → calls, for every command the
     * clients named {@code clientName} sent since the log started, on all its servers, admin commands included.
     */
    public Map<String, Long> commandsOf(String clientName) {
        Map<String, Long> calls = new TreeMap<>();
        for (ServerStream stream : streams) {
            stream.catchUp();
            stream.commandsOf(clientName, calls);
        }
        return calls;
    }

    /** Returns {@link #commandsOf} without the {@link #ADMIN_COMMANDS}. */
    public Map<String, Long> dataCommandsOf(String clientName) {
        Map<String, Long> calls = commandsOf(clientName);
        calls.keySet().removeAll(ADMIN_COMMANDS);
        return calls;
    }

    /** Returns how many data commands the clients named {@code clientName} sent, on all servers together. */
    public long dataCommandCountOf(String clientName) {
        return dataCommandsOf(clientName).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Returns the calls of one command (lower case) that the clients named {@code clientName} sent. */
    public long callsOf(String clientName, String command) {
        return commandsOf(clientName).getOrDefault(command, 0L);
    }

    /** Stops the streams and their reader threads. */
    @Override
    public void close() {
        streams.forEach(ServerStream::close);
    }

    /** One server's MONITOR stream, read by a thread of its own into a list of lines. */
    private static final class ServerStream implements Runnable {

        private final RedisServer server;
        private final RespConnection connection;
        private final Thread reader;
        private final List<String> lines = new ArrayList<>();
        // Connections that CLIENT LIST showed, at start and at each catch-up: address → name.
        private final Map<String, String> names = new TreeMap<>();
        private final String markerPrefix = "redkit-commandlog-" + IDS.incrementAndGet() + "-";
        private long markers;
        private String ended;

        private ServerStream(RedisServer server, RespConnection connection) {
            this.server = server;
            this.connection = connection;
            this.reader = new Thread(this, "redkit-testing-monitor-" + server.port());
            this.reader.setDaemon(true);
        }

        static ServerStream open(RedisServer server) {
            RespConnection connection = null;
            try {
                connection = RespConnection.open(server.host(), server.port(), RedisServer.ADMIN_TIMEOUT);
                if (server.credentials() != null) {
                    connection.call(false, server.credentials().authCommand());
                }
                connection.send("MONITOR");
                Object ok = connection.next(false);
                if (!"OK".equals(ok)) {
                    throw new RedisTestingException("MONITOR on " + server + " answered " + ok);
                }
                connection.readTimeout(Duration.ZERO);
            } catch (IOException e) {
                closeQuietly(connection);
                throw new RedisTestingException("Cannot MONITOR " + server + ": " + e, e);
            }
            ServerStream stream = new ServerStream(server, connection);
            stream.recordClients();
            stream.reader.start();
            return stream;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    Object line = connection.next(false);
                    synchronized (this) {
                        lines.add(String.valueOf(line));
                        notifyAll();
                    }
                }
            } catch (IOException | RuntimeException e) {
                synchronized (this) {
                    ended = String.valueOf(e.getMessage());
                    notifyAll();
                }
            }
        }

        /** Waits until a marker sent now has come through the stream, so every earlier command is in the list. */
        void catchUp() {
            String marker;
            synchronized (this) {
                marker = markerPrefix + (++markers);
            }
            try {
                server.command("ECHO", marker);
                recordClients();
            } catch (RedisTestingException e) {
                throw new RedisTestingException("Cannot read the MONITOR stream of " + server + " (" + e.getMessage()
                        + "): a server killed or restarted inside a CommandLog cannot be counted", e);
            }
            long deadline = System.nanoTime() + CATCH_UP.toNanos();
            synchronized (this) {
                while (!containsMarker(marker)) {
                    if (ended != null) {
                        throw new RedisTestingException("The MONITOR stream of " + server + " ended (" + ended
                                + "): a server killed or restarted inside a CommandLog cannot be counted");
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new RedisTestingException("The MONITOR stream of " + server + " did not show "
                                + marker + " within " + CATCH_UP.toMillis() + " ms");
                    }
                    try {
                        wait(Math.max(1, left / 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new RedisTestingException("Interrupted while reading the MONITOR stream", e);
                    }
                }
            }
        }

        private boolean containsMarker(String marker) {
            String quoted = "\"" + marker + "\"";
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (lines.get(i).endsWith(quoted)) {
                    return true;
                }
            }
            return false;
        }

        private void recordClients() {
            String list = String.valueOf(server.command("CLIENT", "LIST"));
            synchronized (this) {
                for (String client : list.split("\r?\n")) {
                    String addr = field(client, "addr");
                    String name = field(client, "name");
                    if (addr != null && name != null && !name.isEmpty()) {
                        names.put(addr, name);
                    }
                }
            }
        }

        synchronized void commandsOf(String clientName, Map<String, Long> calls) {
            Set<String> ours = new HashSet<>();
            names.forEach((addr, name) -> {
                if (name.equals(clientName)) {
                    ours.add(addr);
                }
            });
            boolean inOurScript = false;
            for (String raw : lines) {
                MonitorLine line = MonitorLine.parse(raw);
                if (line == null) {
                    continue;
                }
                if (line.fromScript()) {
                    if (inOurScript) {
                        calls.merge(line.command(), 1L, Long::sum);
                    }
                    continue;
                }
                if (clientName.equals(line.nameSet())) {
                    ours.add(line.addr());
                }
                boolean mine = ours.contains(line.addr());
                inOurScript = mine && SCRIPT_CALLS.contains(line.command());
                if (mine) {
                    calls.merge(line.command(), 1L, Long::sum);
                }
            }
        }

        void close() {
            closeQuietly(connection);
            try {
                reader.join(RedisServer.ADMIN_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static String field(String clientListLine, String name) {
            for (String part : clientListLine.split(" ")) {
                if (part.startsWith(name + "=")) {
                    return part.substring(name.length() + 1);
                }
            }
            return null;
        }

        private static void closeQuietly(RespConnection connection) {
            if (connection != null) {
                try {
                    connection.close();
                } catch (IOException ignored) {
                    // closing a socket that is already gone
                }
            }
        }
    }

    /**
     * One MONITOR line, {@code 1700000000.123456 [0 127.0.0.1:50000] "get" "key"}: the sender's address ({@code lua}
     * inside a script), the command in lower case, and the name the command gives its connection, if it sets one.
     */
    record MonitorLine(String addr, String command, String nameSet) {

        boolean fromScript() {
            return addr.equals("lua");
        }

        static MonitorLine parse(String line) {
            int open = line.indexOf('[');
            int close = line.indexOf(']', open + 1);
            if (open < 0 || close < 0) {
                return null;
            }
            String[] source = line.substring(open + 1, close).split(" ", 2);
            if (source.length < 2) {
                return null;
            }
            List<String> args = arguments(line.substring(close + 1));
            if (args.isEmpty()) {
                return null;
            }
            String command = args.get(0).toLowerCase(java.util.Locale.ROOT);
            return new MonitorLine(source[1], command, nameSet(command, args));
        }

        private static String nameSet(String command, List<String> args) {
            if (command.equals("client") && args.size() >= 3 && args.get(1).equalsIgnoreCase("setname")) {
                return args.get(2);
            }
            if (command.equals("hello")) {
                for (int i = 1; i + 1 < args.size(); i++) {
                    if (args.get(i).equalsIgnoreCase("setname")) {
                        return args.get(i + 1);
                    }
                }
            }
            return null;
        }

        /** The quoted arguments of a MONITOR line; escapes are kept as written, which is enough for names. */
        private static List<String> arguments(String rest) {
            List<String> args = new ArrayList<>();
            int i = 0;
            while (true) {
                int start = rest.indexOf('"', i);
                if (start < 0) {
                    return args;
                }
                StringBuilder arg = new StringBuilder();
                int j = start + 1;
                while (j < rest.length() && rest.charAt(j) != '"') {
                    if (rest.charAt(j) == '\\' && j + 1 < rest.length()) {
                        arg.append(rest.charAt(j));
                        j++;
                    }
                    arg.append(rest.charAt(j));
                    j++;
                }
                args.add(arg.toString());
                i = j + 1;
            }
        }
    }
}
