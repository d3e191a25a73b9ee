package io.overseer.api;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The far end of {@link FailedLogins}: a request the container authenticated is refused with a 429 problem
 * while its user or its address waits after failed logins — the right password gets no other answer than
 * a wrong one then. Otherwise the user's failures are forgotten and the request goes on.
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true) // event streams are asynchronous
public class LoginThrottleFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    FailedLogins logins;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String user = request.getRemoteUser();
        if (user != null) {
            long wait = logins.refusal(user, request.getRemoteAddr());
            if (wait > 0) {
                tooMany(response, wait);
                return;
            }
            logins.succeeded(user);
        }
        chain.doFilter(request, response);
    }

    /** 429 with Retry-After: too many failed logins for this user or from this address. */
    static void tooMany(HttpServletResponse response, long waitSeconds) throws IOException {
        response.setHeader("Retry-After", Long.toString(waitSeconds));
        Problem.of(429, "Too Many Requests", "Too many failed logins for this user or from this address; no attempt"
                + " is checked for " + waitSeconds + " s").writeTo(response);
    }
}
