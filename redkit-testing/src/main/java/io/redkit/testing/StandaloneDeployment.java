package io.redkit.testing;

import java.util.List;
import java.util.Objects;

/** {@link Deployment} of one redis-server: it holds every key. */
final class StandaloneDeployment implements Deployment {

    private final RedisServer server;

    StandaloneDeployment(RedisServer server) {
        this.server = Objects.requireNonNull(server, "server");
    }

    @Override
    public Kind kind() {
        return Kind.STANDALONE;
    }

    @Override
    public String url() {
        return server.url();
    }

    @Override
    public RedisServer serverOf(String key) {
        return server;
    }

    @Override
    public List<RedisServer> masters() {
        return List.of(server);
    }

    @Override
    public List<RedisServer> replicas() {
        return List.of();
    }

    @Override
    public List<RedisServer> nodes() {
        return List.of(server);
    }

    @Override
    public void healAll() {
        server.heal();
    }
}
