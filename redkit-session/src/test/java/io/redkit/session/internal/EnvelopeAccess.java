package io.redkit.session.internal;

import io.redkit.session.SessionId;

/** A door into the package-private {@link Envelope} for tests in other packages. */
public final class EnvelopeAccess {

    private EnvelopeAccess() {
    }

    /** Whether a header written with {@code userId} opens to the same user id. */
    public static boolean roundTripsUserId(String userId) {
        SessionId id = SessionId.generate();
        byte[] bytes = Envelope.write(id, userId, 1, 2, 0, 1, "{}".getBytes());
        Envelope.Opened opened = Envelope.open(id, bytes, 1);
        return opened.status() == Envelope.Status.VALID && userId.equals(opened.userId());
    }
}
