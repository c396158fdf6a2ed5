package io.redkit.lab.bench;

/**
 * The one redis-server of a run, as contenders and the ceiling see it.
 *
 * @param url the URL every contender connects to
 * @param host its host (always loopback)
 * @param port its port
 * @param password its password, or null
 * @param describe a description for the report
 */
public record BenchEnv(String url, String host, int port, String password, String describe) {

    @Override
    public String toString() {
        return describe;
    }
}
