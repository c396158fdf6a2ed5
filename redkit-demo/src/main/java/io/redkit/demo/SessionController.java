package io.redkit.demo;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.redkit.demo.Accounts.Account;
import io.redkit.limit.Decision;
import io.redkit.limit.RateLimitHeaders;
import io.redkit.limit.RateLimiter;
import io.redkit.session.Session;
import io.redkit.session.SessionCookie;
import io.redkit.session.SessionStore;
import io.redkit.spring.RedkitLimiters;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Sign-in over redkit-session. {@code POST /login} (10 attempts a minute per address and username) issues a fresh
 * session id (rotating away any id the request
 * came with, so a planted id is never signed in); {@code GET /me} needs the cookie; {@code POST /logout} ends this
 * session, {@code POST /logout-everywhere} every session of the user. While Redis is unavailable every one of them
 * answers 503 ({@link ApiErrors}): a session that cannot be read is never taken as "signed out" or anonymous.
 */
@RestController
public class SessionController {

    private final Accounts accounts;
    private final SessionStore<Account> sessions;
    private final SessionCookie cookie;
    private final RateLimiter attempts;

    public SessionController(Accounts accounts, SessionStore<Account> sessions, SessionCookie cookie,
            RedkitLimiters limiters) {
        this.accounts = accounts;
        this.sessions = sessions;
        this.cookie = cookie;
        this.attempts = limiters.get("login");
    }

    /** A sign-in request. */
    public record Credentials(String username, String password) {
    }

    /**
     * Signs in. Attempts are limited per client address and username (the {@code login} limiter), counted before
     * the password is checked, so guessing costs the same whether a guess is right or wrong: 429 with Retry-After
     * past the limit, 503 while Redis cannot count them.
     */
    @PostMapping("/login")
    public ResponseEntity<Account> login(@RequestBody Credentials credentials,
            @RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies, HttpServletRequest request) {
        if (credentials == null || credentials.username() == null || credentials.password() == null
                || credentials.username().length() > 100 || credentials.password().length() > 200) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "username and password are required");
        }
        Decision attempt = attempts.tryAcquire(request.getRemoteAddr() + "|" + credentials.username());
        if (!attempt.allowed()) {
            HttpStatus status = attempt.basis() == Decision.Basis.FAIL_CLOSED ? HttpStatus.SERVICE_UNAVAILABLE
                    : HttpStatus.TOO_MANY_REQUESTS;
            ResponseEntity.BodyBuilder refused = ResponseEntity.status(status);
            RateLimitHeaders.of(attempt).forEach(refused::header);
            return status == HttpStatus.SERVICE_UNAVAILABLE ? refused.header(HttpHeaders.RETRY_AFTER, "1").build()
                    : refused.build();
        }
        Account account = accounts.authenticate(credentials.username(), credentials.password())
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.UNAUTHORIZED, "wrong username or password"));
        // The same user signing in again rotates the session the request came with (a planted id is never signed
        // in); another user's session, sent along by a shared browser or on purpose, is left alone and this
        // sign-in gets a fresh id: a sign-in never logs someone else out.
        Optional<Session<Account>> previous = current(cookies).filter(p -> p.userId().equals(account.id()));
        Session<Account> session = previous.flatMap(p -> sessions.rotate(p, account.id(), account))
                .orElseGet(() -> sessions.create(account.id(), account));
        return ResponseEntity.ok().header(HttpHeaders.SET_COOKIE, cookie.header(session, Instant.now()))
                .body(account);
    }

    @GetMapping("/me")
    public Account me(@RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        return signedIn(cookies).data();
    }

    @PostMapping("/logout")
    public ResponseEntity<Void> logout(@RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        cookie.read(cookies).ifPresent(sessions::revoke);
        return ResponseEntity.noContent().header(HttpHeaders.SET_COOKIE, cookie.clearHeader()).build();
    }

    @PostMapping("/logout-everywhere")
    public ResponseEntity<Map<String, Integer>> logoutEverywhere(
            @RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        int ended = sessions.revokeAll(signedIn(cookies).userId());
        return ResponseEntity.ok().header(HttpHeaders.SET_COOKIE, cookie.clearHeader())
                .body(Map.of("sessionsEnded", ended));
    }

    private Session<Account> signedIn(String cookies) {
        return current(cookies).orElseThrow(() -> new ResponseStatusException(HttpStatus.UNAUTHORIZED,
                "sign in first"));
    }

    private Optional<Session<Account>> current(String cookies) {
        return cookie.read(cookies).flatMap(sessions::load);
    }
}
