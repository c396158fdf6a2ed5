package io.redkit.lab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import io.netty.util.Version;

/**
 * The peer libraries in this jar and the Netty they run on: one Netty version for Lettuce and Redisson (the
 * root pom's netty-bom) is what keeps them from breaking each other; one Redisson round trip on the run's server
 * proves it at run time.
 */
public final class Peers {

    private Peers() {
    }

    static Map<String, String> check(BenchEnv env) {
        Map<String, String> peers = new LinkedHashMap<>();
        peers.put("netty", String.join(", ", new TreeSet<>(Version.identify().values().stream()
                .map(Version::artifactVersion).toList())));
        peers.put("lettuce", version("io.lettuce", "lettuce-core"));
        peers.put("redisson", version("org.redisson", "redisson") + ", " + redissonSmoke(env));
        peers.put("bucket4j", version("com.bucket4j", "bucket4j_jdk17-lettuce"));
        peers.put("spring-data-redis", version("org.springframework.data", "spring-data-redis"));
        return peers;
    }

    /** Redisson's single-server config for the run's server, every other setting at Redisson's default. */
    public static Config redissonConfig(BenchEnv env) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + env.host() + ":" + env.port());
        if (env.password() != null) {
            config.setPassword(env.password());
        }
        return config;
    }

    private static String redissonSmoke(BenchEnv env) {
        Config config = redissonConfig(env);
        config.useSingleServer().setConnectionMinimumIdleSize(1).setConnectionPoolSize(2);
        RedissonClient redisson = null;
        try {
            redisson = Redisson.create(config);
            RBucket<String> bucket = redisson.getBucket("bench:peers:redisson", StringCodec.INSTANCE);
            bucket.set("ok");
            String read = bucket.getAndDelete();
            return "ok".equals(read) ? "smoke ok (RBucket set/get on the run's server)" : "smoke read " + read;
        } catch (RuntimeException | LinkageError e) {
            return "smoke FAILED: " + e;
        } finally {
            if (redisson != null) {
                redisson.shutdown();
            }
        }
    }

    private static String version(String group, String artifact) {
        String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = Peers.class.getResourceAsStream(resource)) {
            if (in == null) {
                return "version unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "version unknown");
        } catch (IOException e) {
            return "version unknown";
        }
    }
}
