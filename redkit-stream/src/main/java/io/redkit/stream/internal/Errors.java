package io.redkit.stream.internal;

/** How an exception is written into a dead letter: bounded, one line, class and message. */
final class Errors {

    private static final int MAX = 1000;

    private Errors() {
    }

    static String describe(Throwable e) {
        String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        text = text.replace('\n', ' ').replace('\r', ' ');
        return text.length() > MAX ? text.substring(0, MAX) + "…" : text;
    }
}
