package io.overseer.remoteservice;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Map;

/** The simulator's own endpoints: statistics, call traces, the effect list, fault rules and health. */
final class AdminHandlers {

    private static final System.Logger LOG = System.getLogger(AdminHandlers.class.getName());
    // Strict on purpose: a misspelt field would silently fall back to a default and mislead a benchmark.
    private static final ObjectReader FAULT_READER = Json.MAPPER.readerFor(FaultRule.Request.class)
            .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final EffectLedger ledger;
    private final FaultInjector faults;
    private final HangHolder hangs;
    private final RequestCounters counters;

    AdminHandlers(EffectLedger ledger, FaultInjector faults, HangHolder hangs, RequestCounters counters) {
        this.ledger = ledger;
        this.faults = faults;
        this.hangs = hangs;
        this.counters = counters;
    }

    void stats(HttpExchange exchange) throws IOException {
        Exchanges.sendJson(exchange, 200, counters.withLedger(ledger.counts()));
    }

    void traffic(HttpExchange exchange) throws IOException {
        Exchanges.sendJson(exchange, 200, counters.traffic().view());
    }

    void clearTraffic(HttpExchange exchange) throws IOException {
        counters.traffic().clear();
        Exchanges.sendNoContent(exchange);
    }

    /** The calls one order made and the traceparent each carried; an order never seen has none. */
    void traces(HttpExchange exchange) throws IOException {
        String orderId = Exchanges.query(exchange).get("orderId");
        if (orderId == null || orderId.isBlank() || orderId.length() > CallTraces.MAX_ORDER_ID_LENGTH) {
            throw ProblemException.badRequest("Query parameter orderId is required (1-"
                    + CallTraces.MAX_ORDER_ID_LENGTH + " characters)");
        }
        Exchanges.sendJson(exchange, 200, counters.traces().view(orderId));
    }

    void listEffects(HttpExchange exchange) throws IOException {
        Exchanges.sendJson(exchange, 200, ledger.effects(Exchanges.query(exchange).get("orderId")));
    }

    /** Starts a fresh measurement: the ledger and the traffic counters go together. */
    void clearEffects(HttpExchange exchange) throws IOException {
        ledger.clear();
        counters.reset();
        Exchanges.sendNoContent(exchange);
    }

    void listFaults(HttpExchange exchange) throws IOException {
        Exchanges.sendJson(exchange, 200, faults.rules());
    }

    void putFault(HttpExchange exchange) throws IOException {
        FaultRule rule;
        try {
            rule = FaultRule.from(FAULT_READER.readValue(Exchanges.readBody(exchange)));
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("Fault rule is not valid JSON: " + e.getOriginalMessage());
        }
        LOG.log(Level.INFO, "Fault rule set: {0}", rule);
        Exchanges.sendJson(exchange, 200, faults.put(rule));
    }

    /** Clearing the rules also frees requests still hanging from an earlier rule. */
    void clearFaults(HttpExchange exchange) throws IOException {
        faults.clear();
        hangs.releaseAll();
        LOG.log(Level.INFO, "Fault rules cleared");
        Exchanges.sendNoContent(exchange);
    }

    void health(HttpExchange exchange) throws IOException {
        Exchanges.sendJson(exchange, 200, Map.of("status", "UP"));
    }
}
