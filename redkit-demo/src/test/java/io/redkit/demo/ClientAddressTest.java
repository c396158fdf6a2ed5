package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The key a per-address limit counts: an IPv4 address as it is, an IPv6 client by its /64. */
class ClientAddressTest {

    @Test
    void anIpv6ClientIsItsSlash64() {
        assertThat(ClientAddress.of("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo("2001:db8:1:2::/64");
        assertThat(ClientAddress.of("2001:db8:1:2::9")).isEqualTo(ClientAddress.of("2001:db8:1:2:ffff::1"));
        assertThat(ClientAddress.of("2001:db8:1:3::9")).isNotEqualTo(ClientAddress.of("2001:db8:1:2::9"));
    }

    @Test
    void anIpv4ClientIsItsAddress() {
        assertThat(ClientAddress.of("203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(ClientAddress.of("127.0.0.2")).isNotEqualTo(ClientAddress.of("127.0.0.3"));
    }
}
