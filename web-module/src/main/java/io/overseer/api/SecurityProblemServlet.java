package io.overseer.api;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The container answers missing credentials (401) and a missing role (403) before JAX-RS sees the
 * request; web.xml routes those answers here so they are RFC 9457 problems like every other error.
 * The container's WWW-Authenticate challenge is kept. A 401 to a request that carried Basic credentials
 * is a failed login: counted by {@link FailedLogins}, and answered 429 instead once its user or address
 * has to wait.
 */
@WebServlet("/problem/security")
public class SecurityProblemServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    FailedLogins logins;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer value ? value : HttpServletResponse.SC_FORBIDDEN;
        if (status == HttpServletResponse.SC_UNAUTHORIZED) {
            String user = basicUser(request.getHeader("Authorization"));
            long wait = user == null ? 0 : logins.failed(user, request.getRemoteAddr());
            if (wait > 0) {
                LoginThrottleFilter.tooMany(response, wait);
                return;
            }
        }
        Problem problem = status == HttpServletResponse.SC_UNAUTHORIZED
                ? Problem.of(status, "Unauthorized", "Credentials are required (HTTP Basic)")
                : Problem.of(status, "Forbidden", "The caller lacks the role this resource requires");
        problem.writeTo(response);
    }

    /** The user name of {@code Basic base64(user:password)}, or null if the header is not that. */
    static String basicUser(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                    StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? null : decoded.substring(0, colon);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
