package io.redkit.stream.internal;

/** Arithmetic on stream entry ids ({@code <ms>-<seq>}, both unsigned 64-bit). */
final class StreamIds {

    /** The largest sequence number: an unsigned 64-bit integer. */
    private static final String MAX_SEQUENCE = Long.toUnsignedString(-1L);

    private StreamIds() {
    }

    /**
     * The id just below {@code id}, so that {@code XREADGROUP … <previous(id)>} with {@code COUNT 1} returns
     * exactly {@code id} when it is pending for the reader: there is no id in between.
     */
    static String previous(String id) {
        int dash = id.indexOf('-');
        if (dash < 0) {
            throw new IllegalArgumentException("not a stream entry id: '" + id + "'");
        }
        long ms = Long.parseUnsignedLong(id.substring(0, dash));
        long seq = Long.parseUnsignedLong(id.substring(dash + 1));
        if (seq != 0) {
            return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq - 1);
        }
        if (ms == 0) {
            return "0-0";
        }
        return Long.toUnsignedString(ms - 1) + "-" + MAX_SEQUENCE;
    }
}
