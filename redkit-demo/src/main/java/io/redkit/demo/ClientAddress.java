package io.redkit.demo;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The client a per-address limit counts: the connection's address (behind a proxy, the one the proxy vouches for,
 * through Tomcat's RemoteIpValve; never a header the client sets). An IPv6 client is its /64: one subscriber gets
 * a whole /64 and could otherwise send each request from a new address.
 */
final class ClientAddress {

    private ClientAddress() {
    }

    static String of(HttpServletRequest request) {
        return of(request.getRemoteAddr());
    }

    /** The limit's key for the address literal {@code address}: itself for IPv4, its /64 for IPv6. */
    static String of(String address) {
        if (address == null || address.indexOf(':') < 0) {
            return address;
        }
        try {
            // A literal, so no lookup is made.
            InetAddress parsed = InetAddress.getByName(address);
            if (parsed instanceof Inet6Address) {
                byte[] bytes = parsed.getAddress();
                StringBuilder prefix = new StringBuilder();
                for (int i = 0; i < 8; i += 2) {
                    prefix.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
                }
                return prefix.append(":/64").toString();
            }
            return parsed.getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
