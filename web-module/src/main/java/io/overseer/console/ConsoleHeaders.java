package io.overseer.console;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Confines the console's static files: a Content-Security-Policy that lets the page load only its own
 * script and style sheet and talk only to its own origin (no inline script or style, so text from the
 * server that slipped into markup could not run), no framing, no sniffing, no Referer leaving the page
 * (order ids travel in its URL). The page itself is never cached, so a deployment's new version is the
 * one loaded; its script and style sheet are revalidated.
 *
 * <p>No login here: the files hold no data. Every datum comes from /api/admin, which the container
 * guards (web.xml). {@code /console} itself is {@link ConsoleRedirect}'s.
 */
@WebFilter("/console/*")
public class ConsoleHeaders extends HttpFilter {

    private static final long serialVersionUID = 1L;
    static final String POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
            + " frame-ancestors 'none'";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        response.setHeader("Content-Security-Policy", POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY"); // frame-ancestors for browsers that predate it
        boolean page = path.equals("/console/") || path.equals("/console/index.html");
        response.setHeader("Cache-Control", page ? "no-store" : "no-cache");
        chain.doFilter(request, response);
    }
}
