package io.redkit.session;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.redkit.testing.RedisServer;

/** What {@code INFO commandstats} says a server ran, without the admin commands of tests and topology refresh. */
final class CommandStats {

    private static final List<String> ADMIN = List.of("info", "config", "cluster", "client", "ping", "hello",
            "command", "select", "readonly", "auth");

    private CommandStats() {
    }

    /** Calls per command since the last {@code CONFIG RESETSTAT}. */
    static Map<String, Long> of(RedisServer server) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : String.valueOf(server.command("INFO", "commandstats")).split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String command = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (ADMIN.stream().anyMatch(a -> command.equals(a) || command.startsWith(a + "|"))) {
                continue;
            }
            String rest = line.substring(line.indexOf("calls=") + 6);
            calls.merge(command, Long.parseLong(rest.substring(0, rest.indexOf(','))), Long::sum);
        }
        return calls;
    }

    /** All data commands the servers ran. */
    static long total(List<RedisServer> servers) {
        return servers.stream().mapToLong(s -> of(s).values().stream().mapToLong(Long::longValue).sum()).sum();
    }
}
