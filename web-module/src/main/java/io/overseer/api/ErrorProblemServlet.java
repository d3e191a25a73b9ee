package io.overseer.api;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A 400 the web container or JAX-RS's runtime answers before any resource runs — a request header it
 * cannot parse, such as a malformed Accept — would be the server's HTML error page; web.xml routes it here
 * so that it is an RFC 9457 problem like every other refusal. What was wrong is not echoed: the container's
 * message may quote the request, and the caller knows what it sent.
 */
@WebServlet("/problem/bad-request")
public class ErrorProblemServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Problem.of(HttpServletResponse.SC_BAD_REQUEST, "Bad Request", "The request could not be read: a header is"
                + " malformed (an Accept or Content-Type that is not a media type list, for instance)").writeTo(response);
    }
}
