package io.redkit.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A redis-server's wall clock, moved by the test: the server runs under libfaketime (Debian's {@code faketime}
 * package), which reads the offset from a file on every clock call, so {@link RedisServer#jumpClock} takes effect
 * at the server's next look at the time. Only the wall clock moves (key expiry, {@code TIME}); the monotonic clock
 * is left alone, as a real clock step (NTP, a VM resumed) leaves it.
 *
 * <p>Such a server runs the redis-server shipped in the embedded-redis jar, not Debian's: Debian's links the system
 * libjemalloc, whose first allocation asks the clock while libfaketime is still initialising, and the server hangs
 * at start (libfaketime issue #130, open); the shipped binary has jemalloc linked in, which does not. Linux x86-64
 * only.
 */
final class FakeClock {

    private static final List<Path> LIBRARIES = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/faketime/libfaketime.so.1"),
            Path.of("/usr/local/lib/faketime/libfaketime.so.1"));

    private final Path library;
    private final Path offsetFile;
    private Duration offset = Duration.ZERO;

    private FakeClock(Path library, Path offsetFile) {
        this.library = library;
        this.offsetFile = offsetFile;
    }

    /** The libfaketime library, if installed. */
    static Optional<Path> library() {
        return LIBRARIES.stream().filter(Files::isReadable).findFirst();
    }

    /**
     * A clock at offset zero.
     *
     * @throws RedisTestingException when libfaketime is not installed, saying how to get it
     */
    static FakeClock create() {
        Path library = library().orElseThrow(() -> new RedisTestingException("a fake clock needs libfaketime:"
                + " apt-get install faketime (Debian, Ubuntu); looked in " + LIBRARIES));
        try {
            Path file = Files.createTempFile("redkit-faketime-", ".rc");
            file.toFile().deleteOnExit();
            FakeClock clock = new FakeClock(library, file);
            clock.write();
            return clock;
        } catch (IOException e) {
            throw new RedisTestingException("cannot create a fake clock's offset file", e);
        }
    }

    /** The environment that puts a process on this clock. */
    Map<String, String> environment() {
        return Map.of("LD_PRELOAD", library.toString(), "FAKETIME_TIMESTAMP_FILE", offsetFile.toString(),
                "FAKETIME_NO_CACHE", "1", "FAKETIME_DONT_FAKE_MONOTONIC", "1", "DONT_FAKE_MONOTONIC", "1");
    }

    /** Moves the clock by {@code by}, whole seconds, forward when positive, from where it is. */
    synchronized Duration jump(Duration by) {
        if (by.getNano() != 0) {
            throw new IllegalArgumentException("a clock jump is whole seconds, was " + by);
        }
        offset = offset.plus(by);
        write();
        return offset;
    }

    private void write() {
        try {
            // libfaketime's relative form: "+30s". Written whole then moved, so a read never sees half a line.
            Path next = offsetFile.resolveSibling(offsetFile.getFileName() + ".next");
            Files.writeString(next, (offset.isNegative() ? "" : "+") + offset.toSeconds() + "s\n",
                    StandardCharsets.US_ASCII);
            Files.move(next, offsetFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new RedisTestingException("cannot write the fake clock's offset " + offsetFile, e);
        }
    }
}
