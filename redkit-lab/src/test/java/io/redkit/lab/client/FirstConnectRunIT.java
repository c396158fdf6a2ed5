package io.redkit.lab.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/**
 * {@code lab client}'s first connect with an AppCDS archive: recorded by one fresh JVM, mapped by the measured one
 * ({@code -Xshare:on}, so a run that could not map it fails rather than passing for one that did), and nothing
 * left behind; on a class path AppCDS cannot archive, the reason instead of a figure.
 */
class FirstConnectRunIT {

    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.standalone();

    /** The lab's shaded jar, built by the package phase before the integration tests run. */
    private static final Path LAB_JAR = Path.of("target", "redkit-lab.jar");

    @Test
    void theArchiveRecordedByOneStartIsMappedByTheNext() throws Exception {
        assertThat(LAB_JAR).isRegularFile();
        long before = archivesLeft();

        ClientReport.FirstConnect f = FirstConnectRun.runWithAppCds(REDIS.url(), LAB_JAR.toString());

        assertThat(f.error()).as("%s", f).isNull();
        assertThat(f.jvmToFirstReplyMs()).isPositive();
        assertThat(f.connectClasses()).isPositive();
        assertThat(archivesLeft()).isEqualTo(before);
    }

    @Test
    void aClassPathOfDirectoriesIsNamedAsTheReason() throws Exception {
        ClientReport.FirstConnect f = FirstConnectRun.runWithAppCds(REDIS.url(),
                Path.of("target", "classes") + java.io.File.pathSeparator + LAB_JAR);

        assertThat(f.error()).startsWith("recording the archive:").contains("directory");
        assertThat(f.jvmToFirstReplyMs()).isNull();
    }

    private static long archivesLeft() throws Exception {
        try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(p -> p.getFileName().toString().startsWith("redkit-first-connect")).count();
        }
    }
}
