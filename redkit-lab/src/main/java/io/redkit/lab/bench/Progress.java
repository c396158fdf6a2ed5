package io.redkit.lab.bench;

import java.io.PrintWriter;

/**
 * The progress line on stderr: rewritten in place on a terminal, one line per step otherwise (a log file or a
 * test's captured stderr), so that stdout stays reserved for the table or the one JSON object.
 */
final class Progress {

    private final PrintWriter err;
    private final boolean terminal;
    private int width;

    Progress(PrintWriter err) {
        this.err = err;
        this.terminal = System.console() != null;
    }

    void show(String line) {
        if (terminal) {
            String padded = line.length() < width ? line + " ".repeat(width - line.length()) : line;
            width = line.length();
            err.print("\r" + padded);
        } else {
            err.println(line);
        }
        err.flush();
    }

    void done() {
        if (terminal && width > 0) {
            err.print("\r" + " ".repeat(width) + "\r");
            err.flush();
            width = 0;
        }
    }
}
