package io.redkit.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.redkit.RedisEndpoint;
import io.redkit.RedisUrlException;
import io.redkit.Topology;

/**
 * A parsed Redis URL. Parsed by hand because Lettuce's {@code RedisURI.create} knows no Cluster seed lists and
 * echoes the whole URL, password included, in its errors; every message here uses {@link #mask(String)}.
 *
 * <p>Forms: {@code redis[s]://[user[:password]@]host[:port][,host[:port]…][/db][?k=v&…]},
 * {@code redis[s]-sentinel://[user[:password]@]host[:port][,…][/db][?…]#master}. A list of hosts in a
 * {@code redis://} URL, or {@code ?topology=cluster}, means Cluster.
 */
public record RedisUrl(Topology topology, boolean tls, List<RedisEndpoint> endpoints, String username,
        String password, int database, String sentinelMasterId, Map<String, String> query) {

    private static final int DEFAULT_PORT = 6379;
    private static final int DEFAULT_SENTINEL_PORT = 26379;

    /** The query parameters redkit understands; anything else is a typo and is refused. */
    public static final List<String> KNOWN_PARAMETERS = List.of("timeout", "connectTimeout", "clientName",
            "verifyPeer", "cacert", "topology", "database", "name");

    /** Parses {@code url}, naming the bad part in a {@link RedisUrlException} that never shows the password. */
    public static RedisUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new RedisUrlException("empty URL (expected redis://host:port)", "");
        }
        String masked = mask(url);
        String trimmed = url.strip();
        int schemeEnd = trimmed.indexOf("://");
        if (schemeEnd < 0) {
            throw new RedisUrlException("missing scheme (expected redis://, rediss://, redis-sentinel://)", masked);
        }
        String scheme = trimmed.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        boolean sentinel;
        boolean tls;
        switch (scheme) {
            case "redis" -> { sentinel = false; tls = false; }
            case "rediss" -> { sentinel = false; tls = true; }
            case "redis-sentinel" -> { sentinel = true; tls = false; }
            case "rediss-sentinel" -> { sentinel = true; tls = true; }
            default -> throw new RedisUrlException("unknown scheme '" + scheme
                    + "' (expected redis, rediss, redis-sentinel or rediss-sentinel)", masked);
        }
        String rest = trimmed.substring(schemeEnd + 3);
        String fragment = null;
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            fragment = rest.substring(hash + 1);
            rest = rest.substring(0, hash);
        }
        Map<String, String> query = new LinkedHashMap<>();
        int question = rest.indexOf('?');
        if (question >= 0) {
            parseQuery(rest.substring(question + 1), query, masked);
            rest = rest.substring(0, question);
        }
        String path = "";
        int at = rest.lastIndexOf('@');
        int slash = rest.indexOf('/', Math.max(at, 0));
        if (slash >= 0) {
            path = rest.substring(slash + 1);
            rest = rest.substring(0, slash);
        }
        String username = null;
        String password = null;
        if (at >= 0) {
            String userInfo = rest.substring(0, at);
            rest = rest.substring(at + 1);
            int colon = userInfo.indexOf(':');
            if (colon >= 0) {
                username = decode(userInfo.substring(0, colon), "user name", masked);
                password = decode(userInfo.substring(colon + 1), "password", masked);
            } else {
                username = decode(userInfo, "user name", masked);
            }
            if (username != null && username.isEmpty()) {
                username = null;
            }
            if (password != null && password.isEmpty()) {
                throw new RedisUrlException("empty password after ':' (drop the ':' for no password)", masked);
            }
        }
        List<RedisEndpoint> endpoints = parseHosts(rest, sentinel ? DEFAULT_SENTINEL_PORT : DEFAULT_PORT, masked);
        int database = parseDatabase(path, query.remove("database"), masked);
        Topology topology = sentinel ? Topology.SENTINEL : Topology.STANDALONE;
        String topologyParam = query.remove("topology");
        if (topologyParam != null) {
            if (!topologyParam.equalsIgnoreCase("cluster") || sentinel) {
                throw new RedisUrlException("topology=" + topologyParam
                        + " is not understood (only topology=cluster, and not with redis-sentinel://)", masked);
            }
            topology = Topology.CLUSTER;
        } else if (!sentinel && endpoints.size() > 1) {
            topology = Topology.CLUSTER;
        }
        if (topology == Topology.CLUSTER && database != 0) {
            throw new RedisUrlException("database " + database + " is not available on Cluster (only 0)", masked);
        }
        String masterId = null;
        if (sentinel) {
            if (fragment == null || fragment.isBlank()) {
                throw new RedisUrlException("missing master name: end a sentinel URL with #<master name>", masked);
            }
            masterId = decode(fragment, "master name", masked);
        } else if (fragment != null) {
            throw new RedisUrlException("'#" + fragment + "' is only meaningful in a redis-sentinel:// URL", masked);
        }
        return new RedisUrl(topology, tls, List.copyOf(endpoints), username, password, database, masterId,
                Collections.unmodifiableMap(query));
    }

    /** The URL with any password replaced by {@code ****}; safe for logs and messages. */
    public static String mask(String url) {
        if (url == null) {
            return "";
        }
        int schemeEnd = url.indexOf("://");
        int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
        int at = url.lastIndexOf('@');
        if (at < start) {
            return url;
        }
        int colon = url.indexOf(':', start);
        if (colon < 0 || colon > at) {
            return url;
        }
        return url.substring(0, colon + 1) + "****" + url.substring(at);
    }

    /** Parses a duration such as {@code 300ms}, {@code 2s}, {@code 1m}, or a bare number of milliseconds. */
    public static Duration parseDuration(String parameter, String value, String maskedUrl) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (v.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).strip()));
            } else if (v.endsWith("s")) {
                d = Duration.ofMillis(Math.round(Double.parseDouble(v.substring(0, v.length() - 1).strip()) * 1000));
            } else if (v.endsWith("m")) {
                d = Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1).strip()));
            } else {
                d = Duration.ofMillis(Long.parseLong(v));
            }
            if (d.isNegative() || d.isZero()) {
                throw new RedisUrlException(parameter + "=" + value + " must be positive", maskedUrl);
            }
            return d;
        } catch (NumberFormatException e) {
            throw new RedisUrlException(parameter + "=" + value + " is not a duration (use e.g. 300ms, 2s)",
                    maskedUrl);
        }
    }

    private static void parseQuery(String raw, Map<String, String> into, String masked) {
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "parameter " + key, masked);
            if (!KNOWN_PARAMETERS.contains(key)) {
                throw new RedisUrlException("unknown parameter '" + key + "' (known: " + KNOWN_PARAMETERS + ")",
                        masked);
            }
            if (into.put(key, value) != null) {
                throw new RedisUrlException("parameter '" + key + "' given twice", masked);
            }
        }
    }

    private static List<RedisEndpoint> parseHosts(String hosts, int defaultPort, String masked) {
        if (hosts.isBlank()) {
            throw new RedisUrlException("missing host", masked);
        }
        List<RedisEndpoint> endpoints = new ArrayList<>();
        for (String part : hosts.split(",", -1)) {
            String hostPort = part.strip();
            if (hostPort.isEmpty()) {
                throw new RedisUrlException("empty host in the host list", masked);
            }
            String host;
            String portText = null;
            if (hostPort.startsWith("[")) {
                int close = hostPort.indexOf(']');
                if (close < 0) {
                    throw new RedisUrlException("unclosed '[' in host '" + hostPort + "'", masked);
                }
                host = hostPort.substring(1, close);
                String after = hostPort.substring(close + 1);
                if (after.startsWith(":")) {
                    portText = after.substring(1);
                } else if (!after.isEmpty()) {
                    throw new RedisUrlException("unexpected '" + after + "' after host '" + host + "'", masked);
                }
            } else {
                int colon = hostPort.lastIndexOf(':');
                host = colon < 0 ? hostPort : hostPort.substring(0, colon);
                portText = colon < 0 ? null : hostPort.substring(colon + 1);
            }
            if (host.isEmpty() || !host.matches("[A-Za-z0-9._:%-]+")) {
                throw new RedisUrlException("bad host '" + host + "'", masked);
            }
            int port = defaultPort;
            if (portText != null) {
                try {
                    port = Integer.parseInt(portText);
                } catch (NumberFormatException e) {
                    throw new RedisUrlException("bad port '" + portText + "' for host '" + host + "'", masked);
                }
                if (port < 1 || port > 65535) {
                    throw new RedisUrlException("port " + port + " of host '" + host + "' is not 1-65535", masked);
                }
            }
            endpoints.add(new RedisEndpoint(host, port));
        }
        return endpoints;
    }

    private static int parseDatabase(String path, String parameter, String masked) {
        String text = !path.isEmpty() ? path : parameter;
        if (text == null || text.isEmpty()) {
            return 0;
        }
        if (!path.isEmpty() && parameter != null) {
            throw new RedisUrlException("database given both as path and as parameter", masked);
        }
        try {
            int db = Integer.parseInt(text);
            if (db < 0 || db > 15_999) {
                throw new RedisUrlException("database " + db + " is out of range", masked);
            }
            return db;
        } catch (NumberFormatException e) {
            throw new RedisUrlException("database '" + text + "' is not a number", masked);
        }
    }

    private static String decode(String raw, String what, String masked) {
        try {
            return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new RedisUrlException("bad percent-encoding in the " + what, masked);
        }
    }

    @Override
    public String toString() {
        return "RedisUrl[topology=" + topology + ", tls=" + tls + ", endpoints=" + endpoints + ", username="
                + username + ", password=" + (password == null ? "none" : "****") + ", database=" + database
                + ", sentinelMasterId=" + sentinelMasterId + ", query=" + query + "]";
    }
}
