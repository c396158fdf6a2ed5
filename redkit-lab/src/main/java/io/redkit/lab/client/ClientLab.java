package io.redkit.lab.client;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.Target;

/** {@code lab client}: the seeds' client checks (miss, timeout, disconnect, pool, NOSCRIPT, INCR retry). */
@Command(name = "client", mixinStandardHelpOptions = true,
        description = "How redkit behaves on a miss, a paused server, a dead server, a full pool, a flushed"
                + " script cache and a timed-out INCR.")
public final class ClientLab implements Callable<Integer> {

    @Mixin
    LabOptions options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ClientReport report;
        try (Target target = Target.of(options.redisUrl)) {
            report = new ClientScenarios(target).runAll();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            Output.table(out, "lab client — " + report.target(), new String[] {"scenario", "what the caller got",
                "figure"}, new String[][] {
                    {"miss", "GET of an absent key -> " + report.miss().result(), ""},
                    {"timeout", report.timeout().error() + ", outcome " + report.timeout().outcome(),
                        report.timeout().observedMs() + " ms (configured " + report.timeout().configuredMs() + " ms)"},
                    {"disconnected", report.disconnected().skipped() != null ? "skipped: "
                        + report.disconnected().skipped() : report.disconnected().error() + " at once",
                        report.disconnected().observedMs() == null ? "" : report.disconnected().observedMs() + " ms"},
                    {"pool", report.pool().error() + " with " + report.pool().size() + " connections taken",
                        report.pool().observedMs() + " ms (pool wait " + report.pool().waitMs() + " ms)"},
                    {"noscript", "script after SCRIPT FLUSH recovered: " + report.noscript().recovered(),
                        "result " + report.noscript().result() + ", expected " + report.noscript().expected()},
                    {"retry", "timed-out INCR (" + report.retry().error() + ") not sent again",
                        "counter " + report.retry().incrValueAfterTimeout() + ", expected "
                            + report.retry().incrExpected()},
                    firstConnect("first connect", report.firstConnect()),
                    firstConnect("... with AppCDS", report.firstConnectWithAppCds()),
                });
        }
        out.flush();
        return 0;
    }

    private static String[] firstConnect(String name, ClientReport.FirstConnect f) {
        if (f.error() != null) {
            return new String[] {name, "fresh JVM run failed: " + f.error(), ""};
        }
        return new String[] {name, String.format(Locale.ROOT, "fresh JVM: start to main %d ms, DNS %.1f"
                + " ms, Redkit.create %.0f ms (%d classes loaded), first GET %.1f ms; warm JVM: create %.1f ms, GET"
                + " %.1f ms", f.jvmToMainMs(), f.dnsMs(), f.connectMs(), f.connectClasses(), f.firstReplyMs(),
                f.warmConnectMs(), f.warmReplyMs()), f.jvmToFirstReplyMs() + " ms JVM start to first reply (target "
                + f.targetMs() + " ms: " + (f.met() ? "met" : "NOT met") + ")"};
    }
}
