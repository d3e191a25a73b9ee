package io.overseer.remoteservice;

/**
 * Ends a request with a problem answer. Handlers throw it instead of writing error responses
 * themselves so that every failure leaves by the same door.
 */
final class ProblemException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private static final String TYPE_PREFIX = "urn:overseer:remote-service:problem:";

    private final transient Problem problem;
    private final String allow;

    private ProblemException(String type, String title, int status, String detail, String allow) {
        super(status + " " + title + ": " + detail, null, false, false);
        this.problem = new Problem(TYPE_PREFIX + type, title, status, detail, null);
        this.allow = allow;
    }

    static ProblemException badRequest(String detail) {
        return new ProblemException("bad-request", "Bad Request", 400, detail, null);
    }

    static ProblemException notFound(String path) {
        return new ProblemException("not-found", "Not Found", 404, "No resource at " + path, null);
    }

    static ProblemException methodNotAllowed(String method, String allow) {
        return new ProblemException("method-not-allowed", "Method Not Allowed", 405,
                method + " is not supported here; use " + allow, allow);
    }

    /** The injected transient fault: a well-behaved client retries it with the same key. */
    static ProblemException serviceUnavailable(String detail) {
        return new ProblemException("service-unavailable", "Service Unavailable", 503, detail, null);
    }

    /** The injected nontransient fault: retrying cannot help, the client must compensate or give up. */
    static ProblemException unprocessable(String detail) {
        return new ProblemException("unprocessable", "Unprocessable", 422, detail, null);
    }

    static ProblemException internal(String detail) {
        return new ProblemException("internal-error", "Internal Server Error", 500, detail, null);
    }

    Problem problem() {
        return problem;
    }

    /** The {@code Allow} header value for 405 answers, otherwise null. */
    String allow() {
        return allow;
    }
}
