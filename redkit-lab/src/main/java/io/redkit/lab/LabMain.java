package io.redkit.lab;

import java.io.PrintStream;
import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.redkit.lab.bench.BenchCommand;
import io.redkit.lab.cache.ColdCacheLab;
import io.redkit.lab.cache.HotKeyLab;
import io.redkit.lab.cache.PipelineLab;
import io.redkit.lab.cache.StampedeLab;
import io.redkit.lab.client.ClientLab;
import io.redkit.lab.lock.ClockJumpLab;
import io.redkit.lab.lock.FailoverLab;
import io.redkit.lab.lock.LockExpiryLab;
import io.redkit.lab.stream.PubSubVsStreamsLab;

/**
 * {@code java -jar redkit-lab.jar COMMAND}: each claim of the design turned into a run that a reader can repeat.
 * Tables go to stdout; with {@code --json} stdout carries exactly one JSON object and logs go to stderr.
 */
@Command(name = "redkit-lab", mixinStandardHelpOptions = true, version = "redkit-lab 0.1.0",
        description = "Runs redkit's claims against a real redis-server.",
        subcommands = {LabMain.Lab.class, BenchCommand.class})
public final class LabMain implements Runnable {

    /** Entry point of the runnable jar. */
    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs the CLI with the given streams (the smoke tests use this) and returns the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        CommandLine cli = new CommandLine(new LabMain());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** {@code lab …}: scenarios from the seeds, one per subcommand. */
    @Command(name = "lab", mixinStandardHelpOptions = true, description = "Scenarios from the seeds.",
            subcommands = {ClientLab.class, LockExpiryLab.class, FailoverLab.class, ClockJumpLab.class, StampedeLab.class, PipelineLab.class,
                PubSubVsStreamsLab.class, ColdCacheLab.class, HotKeyLab.class})
    static final class Lab implements Runnable {
        @Override
        public void run() {
            new CommandLine(this).usage(System.out);
        }
    }
}
