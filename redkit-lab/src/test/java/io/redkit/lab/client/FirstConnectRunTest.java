package io.redkit.lab.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The fresh JVM's line becomes the report's figures, checked against the 500 ms target; a gap is named. */
class FirstConnectRunTest {

    private static final String LINE = "jvm_to_main_ms=36 management_ms=29.6 dns_ms=2.5 connect_ms=1191.3"
            + " connect_classes=2742 first_reply_ms=5.8 first_reply_classes=16 main_to_first_reply_ms=1229.1"
            + " jvm_to_first_reply_ms=1266 warm_connect_ms=9.5 warm_reply_ms=0.8 classes_at_main=770 close_ms=30.5";

    @Test
    void theLastLinesFiguresAreReadAndTheTargetChecked() {
        ClientReport.FirstConnect f = FirstConnectRun.parse("a log line\n" + LINE + "\n");
        assertThat(f.jvmToFirstReplyMs()).isEqualTo(1266);
        assertThat(f.connectMs()).isEqualTo(1191.3);
        assertThat(f.connectClasses()).isEqualTo(2742);
        assertThat(f.warmConnectMs()).isEqualTo(9.5);
        assertThat(f.targetMs()).isEqualTo(500);
        assertThat(f.met()).isFalse();
        assertThat(f.error()).isNull();
    }

    @Test
    void linesAJvmPrintsAfterTheFiguresAreSkipped() {
        ClientReport.FirstConnect f = FirstConnectRun.parse("a log line\n" + LINE
                + "\n[1.234s][warning][cds] Skipping io/redkit/Example: Old class has been linked\n");
        assertThat(f.error()).isNull();
        assertThat(f.jvmToFirstReplyMs()).isEqualTo(1266);
    }

    @Test
    void aFastEnoughRunMeetsTheTarget() {
        assertThat(FirstConnectRun.parse(LINE.replace("jvm_to_first_reply_ms=1266", "jvm_to_first_reply_ms=480"))
                .met()).isTrue();
    }

    @Test
    void aMissingFigureIsAnErrorNamingIt() {
        ClientReport.FirstConnect f = FirstConnectRun.parse(LINE.replace("dns_ms=2.5 ", ""));
        assertThat(f.error()).startsWith("no dns_ms in:");
        assertThat(f.met()).isFalse();
        assertThat(f.jvmToFirstReplyMs()).isNull();
    }
}
