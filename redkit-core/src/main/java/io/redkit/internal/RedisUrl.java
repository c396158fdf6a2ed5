package io.redkit.internal;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.redkit.RedisEndpoint;
import io.redkit.RedisUrlException;
import io.redkit.Topology;

/**
 * A parsed Redis URL. Parsed by hand because Lettuce's {@code RedisURI.create} knows no Cluster seed lists and
 * echoes the whole URL, password included, in its errors; every message here uses {@link #mask(String)}.
 *
 * <p>Forms: {@code redis[s]://[userinfo@]host[:port][,host[:port]…][/db][?k=v&…]},
 * {@code redis[s]-sentinel://[userinfo@]host[:port][,…][/db][?…]#master}. A list of hosts in a
 * {@code redis://} URL, or {@code ?topology=cluster}, means Cluster.
 *
 * <p>The userinfo is read first and ends at the <em>last</em> {@code @}, so a password may hold {@code # ? / : @}
 * raw (after the userinfo an {@code @} must be written {@code %40}). Its first {@code :} ends the user name; a
 * userinfo without {@code :} is a password, as in Lettuce's {@code RedisURI} and go-redis. User name and password
 * are percent-decoded: {@code %XX} is one byte of UTF-8 (strictly: bad hex or bad UTF-8 is an error), {@code +}
 * stays {@code +}; so a {@code %} in a password is written {@code %25}, and a {@code :} in a password without a
 * user name before it {@code %3A} (or {@code redis://:pass@host}).
 */
public record RedisUrl(Topology topology, boolean tls, List<RedisEndpoint> endpoints, String username,
        String password, int database, String sentinelMasterId, Map<String, String> query) {

    /** The longest {@code ?timeout=}: a request path that waits an hour for one reply has stopped serving anyway. */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    /**
     * The longest {@code ?connectTimeout=}: the kernel gives up an unanswered SYN after about two minutes (Linux,
     * 6 retries), so a longer wait never helps a connection that has not started.
     */
    public static final Duration MAX_CONNECT_TIMEOUT = Duration.ofMinutes(5);
    /** The shortest duration a parameter takes; below 1 ms no reply can arrive in time. */
    private static final Duration MIN_DURATION = Duration.ofMillis(1);

    /** The query parameters redkit understands; anything else is a typo and is refused. */
    public static final List<String> KNOWN_PARAMETERS = List.of("timeout", "connectTimeout", "clientName",
            "verifyPeer", "cacert", "topology", "database", "name");

    private static final int DEFAULT_PORT = 6379;
    private static final int DEFAULT_SENTINEL_PORT = 26379;
    private static final List<String> SCHEMES = List.of("redis", "rediss", "redis-sentinel", "rediss-sentinel");
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern IP_LITERAL = Pattern.compile("[A-Za-z0-9._:%-]+");
    private static final Pattern PORT = Pattern.compile("\\d{1,9}");
    /** Whole or decimal (at most 3 places, so that every value is a whole number of nanoseconds), then a unit. */
    private static final Pattern DURATION = Pattern.compile("(-?)(\\d+)(?:\\.(\\d{1,3}))?\\s*(ms|s|m)?");

    private record Credentials(String username, String password) {
        static final Credentials NONE = new Credentials(null, null);
    }

    /** Parses {@code url}, naming the bad part in a {@link RedisUrlException} that never shows the password. */
    public static RedisUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new RedisUrlException("empty URL (expected redis://host:port)", "");
        }
        try {
            return read(url.strip(), mask(url));
        } catch (RedisUrlException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw invalid(url, e);
        }
    }

    /**
     * The URL with its password replaced by {@code ****}; safe for logs and messages whatever the URL holds. All
     * between {@code ://} and the last {@code @} is hidden, but for a user name before a {@code :}; without a
     * recognisable scheme, all before the last {@code @}.
     */
    public static String mask(String url) {
        if (url == null) {
            return "";
        }
        String stripped = url.strip();
        int[] secret = secretSpan(stripped);
        return secret == null ? stripped
                : stripped.substring(0, secret[0]) + "****" + stripped.substring(secret[1]);
    }

    /**
     * A {@link RedisUrlException} for a check that failed inside another one (a setter, a path, a decoder); its
     * message is kept only when it holds nothing of what {@link #mask} hides, and it is not chained as a cause.
     */
    public static RedisUrlException invalid(String url, IllegalArgumentException failure) {
        String stripped = url == null ? "" : url.strip();
        int[] span = secretSpan(stripped);
        String secret = span == null ? "" : stripped.substring(span[0], span[1]);
        String problem = failure.getMessage();
        if (problem == null
                || (!secret.isEmpty() && (problem.contains(secret) || problem.contains(decodedOrRaw(secret))))) {
            problem = "malformed URL (" + failure.getClass().getSimpleName() + ")";
        }
        return new RedisUrlException(problem, mask(url));
    }

    /**
     * Parses a duration of {@code parameter}: a whole or decimal number with the unit {@code ms}, {@code s} or
     * {@code m} ({@code 300ms}, {@code 1.5s}, {@code 2m}), or a bare number of milliseconds; from
     * {@link #MIN_DURATION} to {@code max}. No exponent, NaN, infinity or sign.
     */
    public static Duration parseDuration(String parameter, String value, Duration max, String maskedUrl) {
        Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new RedisUrlException(parameter + "=" + value + " is not a duration (use e.g. 300ms, 1.5s or 2m)",
                    maskedUrl);
        }
        long nanosPerUnit = switch (m.group(4) == null ? "ms" : m.group(4)) {
            case "m" -> 60_000_000_000L;
            case "s" -> 1_000_000_000L;
            default -> 1_000_000L;
        };
        // Exact decimals: a double makes 1e400 Infinity and rounds, a long of nanoseconds overflows.
        BigDecimal nanos = new BigDecimal(m.group(2) + (m.group(3) == null ? "" : "." + m.group(3)))
                .multiply(BigDecimal.valueOf(nanosPerUnit));
        if (!m.group(1).isEmpty() || nanos.signum() == 0) {
            throw new RedisUrlException(parameter + "=" + value + " must be positive", maskedUrl);
        }
        if (nanos.compareTo(BigDecimal.valueOf(MIN_DURATION.toNanos())) < 0) {
            throw new RedisUrlException(parameter + "=" + value + " must be at least 1ms", maskedUrl);
        }
        if (nanos.compareTo(BigDecimal.valueOf(max.toNanos())) > 0) {
            throw new RedisUrlException(parameter + "=" + value + " must be at most " + format(max), maskedUrl);
        }
        return Duration.ofNanos(nanos.longValueExact());
    }

    private static RedisUrl read(String url, String masked) {
        int schemeEnd = url.indexOf("://");
        if (schemeEnd < 0 || !SCHEME.matcher(url.substring(0, schemeEnd)).matches()) {
            throw new RedisUrlException("missing scheme (expected redis://, rediss://, redis-sentinel://)", masked);
        }
        String scheme = url.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        if (!SCHEMES.contains(scheme)) {
            throw new RedisUrlException("unknown scheme '" + scheme
                    + "' (expected redis, rediss, redis-sentinel or rediss-sentinel)", masked);
        }
        boolean sentinel = scheme.endsWith("-sentinel");
        String rest = url.substring(schemeEnd + 3);
        // The userinfo first, to the last '@': a password's '#', '?' or '/' would otherwise end the host part early.
        int at = rest.lastIndexOf('@');
        Credentials credentials = at < 0 ? Credentials.NONE : credentials(rest.substring(0, at), masked);
        rest = rest.substring(at + 1);
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
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            path = rest.substring(slash + 1);
            rest = rest.substring(0, slash);
        }
        List<RedisEndpoint> endpoints = parseHosts(rest, sentinel ? DEFAULT_SENTINEL_PORT : DEFAULT_PORT, masked);
        int database = parseDatabase(path, query.remove("database"), masked);
        Topology topology = topology(sentinel, endpoints.size(), query.remove("topology"), masked);
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
        return new RedisUrl(topology, scheme.startsWith("rediss"), List.copyOf(endpoints), credentials.username(),
                credentials.password(), database, masterId, Collections.unmodifiableMap(query));
    }

    /** Where the secret part of a stripped URL starts and ends, or {@code null} when there is none to hide. */
    private static int[] secretSpan(String url) {
        int at = url.lastIndexOf('@');
        int schemeEnd = url.indexOf("://");
        boolean schemed = schemeEnd >= 0 && (at < 0 || schemeEnd < at)
                && SCHEME.matcher(url.substring(0, schemeEnd)).matches();
        int start = schemed ? schemeEnd + 3 : 0;
        int colon = url.indexOf(':', start);
        if (at < 0) {
            // Without '@', a "user:password" that lost its "@host" reads as "host:port": hide a port that is no number.
            int end = colon < 0 || url.startsWith("[", start) ? -1 : endOfHost(url, colon + 1);
            return end < 0 || PORT.matcher(url.substring(colon + 1, end)).matches() ? null : new int[] {colon + 1, end};
        }
        if (at <= start) {
            return null;
        }
        // A user name is shown only when well-formed: one holding an '@' may be a password followed by more URL.
        boolean userShown = schemed && colon >= 0 && colon < at && url.lastIndexOf('@', colon) < start;
        return new int[] {userShown ? colon + 1 : start, at};
    }

    private static int endOfHost(String url, int from) {
        int end = from;
        while (end < url.length() && "/?#,".indexOf(url.charAt(end)) < 0) {
            end++;
        }
        return end;
    }

    private static Credentials credentials(String userInfo, String masked) {
        int colon = userInfo.indexOf(':');
        if (colon >= 0 && userInfo.lastIndexOf('@', colon) >= 0) {
            // Else a password-only userinfo followed by a stray '@' would turn the password into a user name.
            throw new RedisUrlException("'@' in the user name (write it %40; a ':' in a password without a user "
                    + "name %3A)", masked);
        }
        String user = colon < 0 ? null : decode(userInfo.substring(0, colon), "user name", masked);
        String password = decode(userInfo.substring(colon + 1), "password", masked);
        if (colon >= 0 && password.isEmpty()) {
            throw new RedisUrlException("empty password after ':' (drop the ':' for no password)", masked);
        }
        return new Credentials(user == null || user.isEmpty() ? null : user, password.isEmpty() ? null : password);
    }

    private static Topology topology(boolean sentinel, int hosts, String parameter, String masked) {
        if (parameter != null) {
            if (!parameter.equalsIgnoreCase("cluster") || sentinel) {
                throw new RedisUrlException("topology=" + parameter
                        + " is not understood (only topology=cluster, and not with redis-sentinel://)", masked);
            }
            return Topology.CLUSTER;
        }
        return sentinel ? Topology.SENTINEL : hosts > 1 ? Topology.CLUSTER : Topology.STANDALONE;
    }

    private static void parseQuery(String raw, Map<String, String> into, String masked) {
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (!KNOWN_PARAMETERS.contains(key)) {
                throw new RedisUrlException("unknown parameter '" + key + "' (known: " + KNOWN_PARAMETERS + ")",
                        masked);
            }
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "parameter " + key, masked);
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
                if (!IP_LITERAL.matcher(host).matches()) {
                    throw new RedisUrlException("bad host '[" + host + "]'", masked);
                }
            } else {
                int colon = hostPort.indexOf(':');
                host = colon < 0 ? hostPort : hostPort.substring(0, colon);
                portText = colon < 0 ? null : hostPort.substring(colon + 1);
                if (!HOST.matcher(host).matches()) {
                    throw new RedisUrlException("bad host '" + host + "' (an IPv6 address needs [brackets])", masked);
                }
            }
            endpoints.add(new RedisEndpoint(host, portText == null ? defaultPort : port(portText, host, masked)));
        }
        return endpoints;
    }

    private static int port(String text, String host, String masked) {
        // Not echoed unless it is a number: without an '@', "user:password" reads as "host:port".
        if (!PORT.matcher(text).matches()) {
            throw new RedisUrlException("bad port of host '" + host + "' (not a number 1-65535)", masked);
        }
        int port = Integer.parseInt(text);
        if (port < 1 || port > 65535) {
            throw new RedisUrlException("port " + port + " of host '" + host + "' is not 1-65535", masked);
        }
        return port;
    }

    private static int parseDatabase(String path, String parameter, String masked) {
        String text = !path.isEmpty() ? path : parameter;
        if (text == null || text.isEmpty()) {
            return 0;
        }
        if (!path.isEmpty() && parameter != null) {
            throw new RedisUrlException("database given both as path and as parameter", masked);
        }
        if (!PORT.matcher(text).matches() || Integer.parseInt(text) > 15_999) {
            throw new RedisUrlException("database '" + text + "' is not a number 0-15999", masked);
        }
        return Integer.parseInt(text);
    }

    private static String decode(String raw, String what, String masked) {
        try {
            return percentDecode(raw);
        } catch (CharacterCodingException | IllegalArgumentException e) {
            throw new RedisUrlException("bad percent-encoding in the " + what, masked);
        }
    }

    private static String decodedOrRaw(String raw) {
        try {
            return percentDecode(raw);
        } catch (CharacterCodingException | IllegalArgumentException e) {
            return raw;
        }
    }

    /** {@code %XX} is one byte of UTF-8; bad hex, a lone surrogate or bytes that are not UTF-8 are refused. */
    private static String percentDecode(String raw) throws CharacterCodingException {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteBuffer in = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(raw));
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.remaining());
        while (in.hasRemaining()) {
            byte b = in.get();
            if (b != '%') {
                out.write(b);
                continue;
            }
            int hi = in.remaining() >= 2 ? Character.digit(in.get(), 16) : -1;
            int lo = hi >= 0 ? Character.digit(in.get(), 16) : -1;
            if (lo < 0) {
                throw new IllegalArgumentException("bad percent-encoding");
            }
            out.write(hi << 4 | lo);
        }
        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(out.toByteArray())).toString();
    }

    private static String format(Duration d) {
        return d.toMillis() % 60_000 == 0 ? d.toMinutes() + "m" : d.toMillis() + "ms";
    }

    @Override
    public String toString() {
        return "RedisUrl[topology=" + topology + ", tls=" + tls + ", endpoints=" + endpoints + ", username="
                + username + ", password=" + (password == null ? "none" : "****") + ", database=" + database
                + ", sentinelMasterId=" + sentinelMasterId + ", query=" + query + "]";
    }
}
