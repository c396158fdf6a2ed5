package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

class RedisServerIT {

    @Test
    void startsOnFreeLoopbackPortAndServesSetGet() {
        try (RedisServer server = RedisServer.start()) {
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.port()).isNotEqualTo(6379);
            assertThat(server.url()).isEqualTo("redis://127.0.0.1:" + server.port());
            assertThat(server.version()).matches("\\d+\\.\\d+\\.\\d+");
            assertThat(server.isRunning()).isTrue();

            RedisClient client = LettuceClients.standalone(server.url(), Duration.ofSeconds(5));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().set("greeting", "hello");
                assertThat(connection.sync().get("greeting")).isEqualTo("hello");
            } finally {
                LettuceClients.shutdown(client);
            }
            assertThat(server.command("GET", "greeting")).isEqualTo("hello");
            assertThat(server.command("DBSIZE")).isEqualTo(1L);
            assertThat(server.command("GET", "missing")).isNull();
            assertThat(server.command("CONFIG", "GET", "save")).asInstanceOf(InstanceOfAssertFactories.LIST).containsExactly("save", "");
        }
    }

    @Test
    void stopShutsDownGracefully() {
        try (RedisServer server = RedisServer.start()) {
            long pid = server.pid();
            server.stop();
            assertThat(server.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid)).isEmpty();
            assertThat(server.logTail(20)).contains("bye bye");
        }
    }

    @Test
    void pausedServerAcceptsConnectionsButAnswersOnlyAfterResume() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            RedisClient client = LettuceClients.standalone(server.url(), Duration.ofMillis(300));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().set("k", "v");

                server.pause();
                server.pause();
                assertThat(server.isPaused()).isTrue();
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(server.host(), server.port()), 1000);
                }
                assertThatThrownBy(() -> connection.sync().get("k")).isInstanceOf(RedisCommandTimeoutException.class);

                connection.setTimeout(Duration.ofSeconds(10));
                CompletableFuture<String> pending = connection.async().get("k").toCompletableFuture();
                assertThatThrownBy(() -> pending.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);

                server.resume();
                assertThat(server.isPaused()).isFalse();
                assertThat(pending.get(5, TimeUnit.SECONDS)).isEqualTo("v");
            } finally {
                LettuceClients.shutdown(client);
            }
        }
    }

    @Test
    void killedServerRestartsOnSamePortWithEmptyData() {
        try (RedisServer server = RedisServer.start()) {
            int port = server.port();
            long pid = server.pid();
            server.command("SET", "k", "v");

            server.kill();
            assertThat(server.isRunning()).isFalse();
            assertThatThrownBy(() -> connect(port)).isInstanceOf(ConnectException.class);

            server.restart();
            assertThat(server.isRunning()).isTrue();
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(server.command("GET", "k")).as("no persistence").isNull();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void pausedServerCanBeKilledAndRestarted() {
        try (RedisServer server = RedisServer.start()) {
            server.pause();
            server.restart();
            assertThat(server.isPaused()).isFalse();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void requirepassFromBuilderIsUsedForAdminCommands() {
        try (RedisServer server = RedisServer.builder().arg("requirepass", "s3cret").start()) {
            assertThat(server.command("SET", "k", "v")).isEqualTo("OK");

            RedisClient anonymous = LettuceClients.standalone(server.url(), Duration.ofSeconds(5));
            RedisClient authenticated = LettuceClients.of(RedisURI.builder(RedisURI.create(server.url())).withPassword("s3cret".toCharArray()).build());
            try {
                assertThatThrownBy(() -> {
                    try (StatefulRedisConnection<String, String> connection = anonymous.connect()) {
                        connection.sync().get("k");
                    }
                }).isInstanceOf(RedisException.class).hasStackTraceContaining("NOAUTH");
                try (StatefulRedisConnection<String, String> connection = authenticated.connect()) {
                    assertThat(connection.sync().get("k")).isEqualTo("v");
                }
            } finally {
                LettuceClients.shutdown(anonymous);
                LettuceClients.shutdown(authenticated);
            }
            server.restart();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void replicaOfCopiesTheMastersData() {
        try (RedisServer master = RedisServer.builder().arg("requirepass", "pw").start();
                RedisServer replica = RedisServer.builder().replicaOf(master).start()) {
            master.command("SET", "k", "v");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(replica.command("GET", "k")).isEqualTo("v"));
        }
    }

    @Test
    void errorReplyThrowsRedisReplyException() {
        try (RedisServer server = RedisServer.start()) {
            assertThatThrownBy(() -> server.command("NOSUCHCOMMAND"))
                    .isInstanceOfSatisfying(RedisReplyException.class, e -> assertThat(e.code()).isEqualTo("ERR"));
        }
    }

    @Test
    void closeKillsProcessAndDeletesDirectoryAndLog() {
        RedisServer server = RedisServer.start();
        Path dir = server.directory();
        Path log = server.logFile();
        long pid = server.pid();
        assertThat(log).exists();
        assertThat(server.logTail(50)).contains("Ready to accept connections");

        server.close();
        assertThat(ProcessHandle.of(pid)).isEmpty();
        assertThat(Files.exists(log)).isFalse();
        assertThat(Files.exists(dir)).isFalse();
        assertThatThrownBy(() -> server.command("PING")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void badDirectiveFailsWithLogTail() {
        assertThatThrownBy(() -> RedisServer.builder().arg("no-such-directive", "1").start())
                .isInstanceOf(RedisTestingException.class)
                .hasMessageContaining("no-such-directive");
    }

    @Test
    void managedDirectiveIsRefusedByName() {
        assertThatThrownBy(() -> RedisServer.builder().arg("port", "1234"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'port'");
    }

    @Test
    void fixedPortIsUsedAndATakenOneIsRefused() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        try (RedisServer server = RedisServer.builder().port(port).start()) {
            assertThat(server.port()).isEqualTo(port);
            assertThatThrownBy(() -> RedisServer.builder().port(port).start())
                    .isInstanceOf(RedisTestingException.class).hasMessageContaining(String.valueOf(port));
        }
    }

    private static void connect(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        }
    }

}
