package io.overseer.remoteservice;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Maps paths and methods to handlers, and turns every failure into a problem answer.
 * One root context instead of one per path: the JDK matches contexts by prefix, which would let
 * {@code /statsXYZ} reach the stats handler.
 */
final class SimulatorRoutes implements HttpHandler {

    private static final String OPERATIONS_PREFIX = "/operations/";
    private static final System.Logger LOG = System.getLogger(SimulatorRoutes.class.getName());

    private final OperationHandler operations;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<String, Map<String, Action>> fixedRoutes = new LinkedHashMap<>();

    SimulatorRoutes(OperationHandler operations, AdminHandlers admin) {
        this.operations = operations;
        fixedRoutes.put("/stats", Map.of("GET", admin::stats));
        fixedRoutes.put("/traffic", Map.of("GET", admin::traffic, "DELETE", admin::clearTraffic));
        fixedRoutes.put("/traces", Map.of("GET", admin::traces));
        fixedRoutes.put("/effects", Map.of("GET", admin::listEffects, "DELETE", admin::clearEffects));
        fixedRoutes.put("/faults", Map.of("GET", admin::listFaults, "PUT", admin::putFault,
                "DELETE", admin::clearFaults));
        fixedRoutes.put("/health", Map.of("GET", admin::health));
    }

    @Override
    public void handle(HttpExchange exchange) {
        inFlight.incrementAndGet();
        try {
            route(exchange);
        } catch (ProblemException e) {
            answer(exchange, e);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "Failed " + exchange.getRequestMethod() + " "
                    + exchange.getRequestURI(), e);
            answer(exchange, ProblemException.internal(String.valueOf(e.getMessage())));
        } finally {
            exchange.close();
            inFlight.decrementAndGet();
        }
    }

    /** Exchanges being handled right now, hanging ones included. */
    int inFlight() {
        return inFlight.get();
    }

    private void route(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        if (path.startsWith(OPERATIONS_PREFIX)) {
            if (!"POST".equals(method)) {
                throw ProblemException.methodNotAllowed(method, "POST");
            }
            operations.handle(exchange, path.substring(OPERATIONS_PREFIX.length()));
            return;
        }
        Map<String, Action> byMethod = fixedRoutes.get(path);
        if (byMethod == null) {
            throw ProblemException.notFound(path);
        }
        Action action = byMethod.get(method);
        if (action == null) {
            String allow = String.join(", ", byMethod.keySet().stream().sorted().toList());
            throw ProblemException.methodNotAllowed(method, allow);
        }
        action.run(exchange);
    }

    private static void answer(HttpExchange exchange, ProblemException problem) {
        try {
            Exchanges.sendProblem(exchange, problem);
        } catch (IOException | RuntimeException e) {
            // Typically the client left, or a response had already begun; nothing more to tell anyone.
            LOG.log(Level.DEBUG, "Could not send problem answer: {0}", e.toString());
        }
    }

    @FunctionalInterface
    private interface Action {
        void run(HttpExchange exchange) throws IOException;
    }
}
