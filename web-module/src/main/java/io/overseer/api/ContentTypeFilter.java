package io.overseer.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.util.Collections;
import java.util.List;

/**
 * Refuses a Content-Type that cannot be read (empty, malformed, given twice) with a 415 problem. A servlet
 * filter, because Jersey reads the Content-Type while it builds the request (looking for form
 * parameters), before any JAX-RS filter or exception mapper, and answers a parse failure with
 * sendError(400): Payara's HTML error page. Filters run after the container's authentication, so an
 * anonymous caller still gets the 401 first.
 *
 * <p>415, not 400: RFC 9110 §15.5.16 gives 415 for a format problem "due to the request's indicated
 * Content-Type", and an unreadable Content-Type indicates no more than a missing one, which is a 415
 * here already (the content cannot be taken for JSON, §8.3).
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true) // event streams are asynchronous
public class ContentTypeFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final String TAKEN = "this API takes application/json in UTF-8";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String refusal = refusal(Collections.list(request.getHeaders(HttpHeaders.CONTENT_TYPE)));
        if (refusal == null) {
            chain.doFilter(request, response);
            return;
        }
        Problem.of(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type", refusal).writeTo(response);
    }

    /** Why the declared Content-Type values cannot be read, or null when there is none or one readable. */
    private static String refusal(List<String> declared) {
        if (declared.size() > 1) {
            return "Content-Type is given more than once; " + TAKEN;
        }
        try {
            if (!declared.isEmpty()) {
                MediaType.valueOf(declared.get(0));
            }
            return null;
        } catch (IllegalArgumentException e) {
            return "The Content-Type header is not a media type; " + TAKEN;
        }
    }
}
