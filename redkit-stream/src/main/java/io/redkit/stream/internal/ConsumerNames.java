package io.redkit.stream.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Consumer names: {@code <prefix>-<n>}, the prefix the host and process id unless configured, {@code n} counting
 * the workers of one stream and group in this process from 0. Stable for a process, readable in
 * {@code XINFO CONSUMERS}, and never shared by two live workers.
 */
public final class ConsumerNames {

    private static final Map<String, AtomicInteger> NEXT = new ConcurrentHashMap<>();
    private static volatile String defaultPrefix;

    private ConsumerNames() {
    }

    /** The host name (from {@code HOSTNAME} when set, as in a container) and the process id. */
    public static String defaultPrefix() {
        String prefix = defaultPrefix;
        if (prefix == null) {
            String host = System.getenv("HOSTNAME");
            if (host == null || host.isBlank()) {
                try {
                    host = InetAddress.getLocalHost().getHostName();
                } catch (UnknownHostException e) {
                    host = "host";
                }
            }
            String clean = host.replaceAll("[^A-Za-z0-9_.-]", "_");
            prefix = (clean.length() > 60 ? clean.substring(0, 60) : clean) + "-" + ProcessHandle.current().pid();
            defaultPrefix = prefix;
        }
        return prefix;
    }

    /** The next consumer name for {@code stream} and {@code group} in this process. */
    static String next(String prefix, String stream, String group) {
        int n = NEXT.computeIfAbsent(prefix + '\n' + stream + '\n' + group, k -> new AtomicInteger()).getAndIncrement();
        return prefix + "-" + n;
    }

    /** The consumer that dead consumers' entries are handed to: claimable at once, never a worker of its own. */
    static String heir(String prefix) {
        return prefix + "-reaper";
    }
}
