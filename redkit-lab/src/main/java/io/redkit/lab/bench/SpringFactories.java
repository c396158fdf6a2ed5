package io.redkit.lab.bench;

import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Spring Data Redis connection every Spring contender starts from, as a Spring Boot service gets it: a
 * {@link LettuceConnectionFactory} with its defaults (its own Lettuce client, one shared native connection) on the
 * bench's server. The contender destroys it when it closes.
 */
public final class SpringFactories {

    private SpringFactories() {
    }

    /** A started factory on {@code env}'s server, with its password when it has one. */
    public static LettuceConnectionFactory started(BenchEnv env) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(env.host(), env.port());
        if (env.password() != null) {
            server.setPassword(RedisPassword.of(env.password()));
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
