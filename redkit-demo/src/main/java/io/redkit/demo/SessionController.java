package io.redkit.demo;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

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
 * Sign-in over redkit-session. {@code POST /login} passes two limits, then a bounded password check, and issues a
 * fresh session id (rotating away the same user's id the request came with, so a planted id is never signed in);
 * {@code GET /me} needs the cookie; {@code POST /logout} ends this session, {@code POST /logout-everywhere} every
 * session of the user. While Redis is unavailable every one of them answers 503 ({@link ApiErrors}): a session
 * that cannot be read is never taken as "signed out" or anonymous.
 */
@RestController
public class SessionController {

    private final Accounts accounts;
    private final SessionStore<Account> sessions;
    private final SessionCookie cookie;
    private final SignedIn signedIn;
    private final RateLimiter perAddress;
    private final RateLimiter perUsername;

    public SessionController(Accounts accounts, SessionStore<Account> sessions, SessionCookie cookie,
            SignedIn signedIn, RedkitLimiters limiters) {
        this.accounts = accounts;
        this.sessions = sessions;
        this.cookie = cookie;
        this.signedIn = signedIn;
        this.perAddress = limiters.get("login-address");
        this.perUsername = limiters.get("login");
    }

    /** A sign-in request. */
    public record Credentials(String username, String password) {
    }

    /**
     * Signs in. Attempts are counted before the password is checked, so guessing costs the same whether a guess is
     * right or wrong: first per client address whatever the username (the {@code login-address} limiter, which
     * bounds the hashing one address can make the service do), then per address and username (the {@code login}
     * limiter, against guessing one account's password). 429 with Retry-After past either, 503 while Redis cannot
     * count them (both fail closed), 503 {@code sign-in-busy} when every hashing slot stays busy.
     */
    @PostMapping("/login")
    public ResponseEntity<Object> login(@RequestBody Credentials credentials,
            @RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies, HttpServletRequest request) {
        if (credentials == null || credentials.username() == null || credentials.username().isEmpty()
                || credentials.username().length() > 100) {
            throw ApiException.invalid("username", "username: 1 to 100 characters");
        }
        if (credentials.password() == null || credentials.password().length() > 200) {
            throw ApiException.invalid("password", "password: at most 200 characters");
        }
        String address = ClientAddress.of(request);
        Decision attempt = perAddress.tryAcquire(address);
        if (attempt.allowed()) {
            attempt = perUsername.tryAcquire(address + "|" + credentials.username());
        }
        if (!attempt.allowed()) {
            return refused(attempt, request.getRequestURI());
        }
        Account account = accounts.authenticate(credentials.username(), credentials.password())
                .orElseThrow(() -> new ApiException(ProblemType.BAD_CREDENTIALS, "wrong username or password"));
        // The same user signing in again rotates the session the request came with (a planted id is never signed
        // in); another user's session, sent along by a shared browser or on purpose, is left alone and this
        // sign-in gets a fresh id: a sign-in never logs someone else out.
        Optional<Session<Account>> previous = signedIn.current(cookies).filter(p -> p.userId().equals(account.id()));
        Session<Account> session = previous.flatMap(p -> sessions.rotate(p, account.id(), account))
                .orElseGet(() -> sessions.create(account.id(), account));
        return ResponseEntity.ok().header(HttpHeaders.SET_COOKIE, cookie.header(session, Instant.now()))
                .body(account);
    }

    @GetMapping("/me")
    public Account me(@RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        return signedIn.require(cookies).data();
    }

    @PostMapping("/logout")
    public ResponseEntity<Void> logout(@RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        cookie.read(cookies).ifPresent(sessions::revoke);
        return ResponseEntity.noContent().header(HttpHeaders.SET_COOKIE, cookie.clearHeader()).build();
    }

    @PostMapping("/logout-everywhere")
    public ResponseEntity<Map<String, Integer>> logoutEverywhere(
            @RequestHeader(value = HttpHeaders.COOKIE, required = false) String cookies) {
        int ended = sessions.revokeAll(signedIn.require(cookies).userId());
        return ResponseEntity.ok().header(HttpHeaders.SET_COOKIE, cookie.clearHeader())
                .body(Map.of("sessionsEnded", ended));
    }

    /** 429 with the limit's headers; 503 when the limiter could not count (it fails closed). */
    private static ResponseEntity<Object> refused(Decision attempt, String path) {
        if (attempt.basis() == Decision.Basis.FAIL_CLOSED) {
            return Problems.entity(ProblemType.SESSIONS_UNAVAILABLE,
                    "sign-in attempts cannot be counted while Redis is unavailable; try again shortly", path, null);
        }
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(ProblemType.RATE_LIMITED.status())
                .contentType(Problems.PROBLEM_JSON);
        RateLimitHeaders.of(attempt).forEach(answer::header);
        return answer.body(Problems.body(ProblemType.RATE_LIMITED, 429, "too many sign-in attempts; try again in "
                + RateLimitHeaders.of(attempt).get(RateLimitHeaders.RETRY_AFTER) + " s", path, null));
    }
}
