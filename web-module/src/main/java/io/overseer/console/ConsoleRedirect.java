package io.overseer.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code /console} → {@code /console/}: the page's relative URLs (console.js, ../api/admin/) resolve
 * against the directory. An exact mapping, because without it Payara's mapper answers the directory
 * itself with a 301 to an absolute URL built from the server's own host name, not the one the browser
 * used (seen: http://192.0.2.2:…/console/ for a request to 127.0.0.1). The Location here is a path, which
 * the browser resolves against the address it asked.
 */
@WebServlet("/console")
public class ConsoleRedirect extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) {
        String query = request.getQueryString();
        response.setStatus(HttpServletResponse.SC_FOUND);
        response.setHeader("Location", request.getContextPath() + "/console/" + (query == null ? "" : "?" + query));
    }
}
