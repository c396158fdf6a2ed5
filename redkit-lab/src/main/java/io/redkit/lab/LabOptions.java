package io.redkit.lab;

import picocli.CommandLine.Option;

/** The options every lab and bench command takes. */
public final class LabOptions {

    /** Redis to run against; without it the lab starts its own redis-server and stops it afterwards. */
    @Option(names = "--redis", paramLabel = "URL",
            description = "Redis URL to run against (default: a redis-server the lab starts itself)")
    public String redisUrl;

    /** Print exactly one JSON object on stdout instead of a table. */
    @Option(names = "--json", description = "print one JSON object on stdout (logs go to stderr)")
    public boolean json;
}
