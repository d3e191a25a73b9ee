package io.overseer.api;

import io.overseer.platform.Json;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The container answers missing credentials (401) and a missing role (403) before JAX-RS sees the
 * request; web.xml routes those answers here so they are RFC 9457 problems like every other error.
 * The container's WWW-Authenticate challenge is kept.
 */
@WebServlet("/problem/security")
public class SecurityProblemServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer value ? value : HttpServletResponse.SC_FORBIDDEN;
        Problem problem = status == HttpServletResponse.SC_UNAUTHORIZED
                ? Problem.of(status, "Unauthorized", "Credentials are required (HTTP Basic)")
                : Problem.of(status, "Forbidden", "The caller lacks the role this resource requires");
        response.setStatus(status);
        response.setContentType(Problem.MEDIA_TYPE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Json.write(problem));
    }
}
