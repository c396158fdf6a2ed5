package io.redkit.stream;

/**
 * Receives the signals of one channel, on the client's I/O thread: return quickly, never block.
 *
 * @param <T> the signal's payload type
 */
@FunctionalInterface
public interface SignalListener<T> {

    /** One signal. */
    void onSignal(String channel, T signal);

    /**
     * The subscriber was disconnected and is back, every subscription confirmed again: signals published in
     * between are lost and will never come. Resynchronise here (flush what the signals keep fresh).
     */
    default void onMissed(String channel) {
    }

    /** A message on the channel that the codec could not decode (another publisher, another format); dropped. */
    default void onUndecodable(String channel, byte[] message, Exception error) {
    }
}
