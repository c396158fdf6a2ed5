package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.redkit.testing.RedisServer;

/**
 * {@code rediss://} against a real redis-server with TLS on: certificates are made for the run by openssl (a CA
 * and a server certificate for 127.0.0.1), so verification is real, not switched off.
 */
class TlsIT {

    private static final String APP_PASSWORD = "tls-Pa55-w0rd";

    @TempDir
    static Path certs;
    private static RedisServer server;
    private static int tlsPort;

    @BeforeAll
    static void startTlsServer() throws Exception {
        makeCertificates(certs);
        tlsPort = freePort();
        try {
            server = RedisServer.builder()
                    .arg("tls-port", String.valueOf(tlsPort))
                    .arg("tls-cert-file", certs.resolve("server.crt").toString())
                    .arg("tls-key-file", certs.resolve("server.key").toString())
                    .arg("tls-ca-cert-file", certs.resolve("ca.crt").toString())
                    .arg("tls-auth-clients", "no")
                    .start();
        } catch (RuntimeException e) {
            // Only the embedded fallback binary is built without TLS; .ci/run installs Debian's, which has it.
            assumeTrue(false, "this redis-server cannot serve TLS: " + e.getMessage());
        }
        server.command("ACL", "SETUSER", "app", "on", ">" + APP_PASSWORD, "~app:*", "+@all");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void verifiedTlsWithAnAclUserFromTheUrl() {
        String url = "rediss://app:" + APP_PASSWORD + "@127.0.0.1:" + tlsPort + "?cacert=" + certs.resolve("ca.crt");
        try (Redkit redkit = Redkit.connect(url)) {
            redkit.commands().setString("app:tls", "sealed", Duration.ofMinutes(1));
            assertThat(redkit.commands().getString("app:tls")).contains("sealed");
            assertThat(redkit.toString()).doesNotContain(APP_PASSWORD).contains("rediss://");
        }
        assertThat(server.command("GET", "app:tls")).isEqualTo("sealed");
    }

    @Test
    void aCertificateFromAnUnknownCaIsRefusedAtConnect() {
        // Without cacert, the JDK's trust store is used: it does not know this run's CA.
        String url = "rediss://app:" + APP_PASSWORD + "@127.0.0.1:" + tlsPort;
        assertThatThrownBy(() -> Redkit.connect(url))
                .isInstanceOf(RedisUnavailableException.class)
                .satisfies(e -> assertThat(causes(e)).doesNotContain(APP_PASSWORD));
    }

    @Test
    void verificationCanBeTurnedOffExplicitlyOnly() {
        String url = "rediss://app:" + APP_PASSWORD + "@127.0.0.1:" + tlsPort + "?verifyPeer=NONE";
        try (Redkit redkit = Redkit.connect(url)) {
            assertThat(redkit.commands().ping()).isNotNull();
        }
    }

    @Test
    void plainTextToTheTlsPortFailsClearly() {
        String url = "redis://app:" + APP_PASSWORD + "@127.0.0.1:" + tlsPort + "?connectTimeout=1s";
        assertThatThrownBy(() -> Redkit.connect(url))
                .isInstanceOf(RedisUnavailableException.class)
                .satisfies(e -> assertThat(causes(e)).doesNotContain(APP_PASSWORD));
    }

    private static void makeCertificates(Path dir) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
                StandardCharsets.US_ASCII);
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=redkit-test-ca",
                "-keyout", "ca.key", "-out", "ca.crt");
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
                "-out", "server.csr");
        openssl(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-extfile", "san.ext", "-out", "server.crt");
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String causes(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c).append('\n');
        }
        return sb.toString();
    }
}
