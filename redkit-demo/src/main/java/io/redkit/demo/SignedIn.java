package io.redkit.demo;

import java.util.Optional;

import org.springframework.stereotype.Component;

import io.redkit.demo.Accounts.Account;
import io.redkit.session.Session;
import io.redkit.session.SessionCookie;
import io.redkit.session.SessionStore;

/**
 * Who is calling, from the session cookie. A session that cannot be read because Redis does not answer throws
 * {@code SessionStoreUnavailableException} (503 with Retry-After, {@link ApiErrors}): the caller is never taken
 * for anonymous, and never for signed out.
 */
@Component
public class SignedIn {

    private final SessionStore<Account> sessions;
    private final SessionCookie cookie;
    private final Accounts accounts;

    public SignedIn(SessionStore<Account> sessions, SessionCookie cookie, Accounts accounts) {
        this.sessions = sessions;
        this.cookie = cookie;
        this.accounts = accounts;
    }

    /** The caller's live session, if the request carries one. */
    public Optional<Session<Account>> current(String cookies) {
        return cookie.read(cookies).flatMap(sessions::load);
    }

    /** The caller's live session, or 401 {@code sign-in-required}. */
    public Session<Account> require(String cookies) {
        return current(cookies).orElseThrow(() -> new ApiException(ProblemType.SIGN_IN_REQUIRED,
                "this needs a signed-in session (POST /login)"));
    }

    /**
     * The caller's session when its account may change the catalogue: 401 without a session, 403 {@code forbidden}
     * without the {@code editor} role. The role is read from the accounts table at each write, not from the
     * session, so a role taken away holds at once, not at the next sign-in.
     */
    public Session<Account> requireEditor(String cookies) {
        Session<Account> session = require(cookies);
        if (!accounts.hasRole(session.userId(), Accounts.EDITOR)) {
            throw new ApiException(ProblemType.FORBIDDEN, "changing products needs the '" + Accounts.EDITOR
                    + "' role");
        }
        return session;
    }
}
