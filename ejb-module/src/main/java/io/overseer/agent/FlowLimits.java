package io.overseer.agent;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;

/**
 * Flow limits per remote operation, cluster-wide, from the agent configuration:
 * <pre>
 * overseer.agent.limit.charge-payment.in-flight=5     # calls of the operation running at once, all instances
 * overseer.agent.limit.charge-payment.per-second=20   # calls started in any second (database clock)
 * </pre>
 * Either or both. Enforced where attempts are claimed, in PostgreSQL ({@code io.overseer.scheduler.FlowGate}):
 * work over a limit waits — never failed, never counted as a failure — and starts as a slot frees. A value
 * that is not a whole number of at least 1, or an unknown setting, fails the deployment; so does a limit on
 * an operation no workflow calls ({@link RemoteServices}).
 */
@ApplicationScoped
public class FlowLimits {

    static final String PREFIX = "overseer.agent.limit.";

    /** One operation's limits; null where not limited. */
    public record FlowLimit(String operation, Integer inFlight, Integer perSecond) {
    }

    @Inject
    Config config;

    private Map<String, FlowLimit> limits = Map.of();

    @PostConstruct
    void read() {
        limits = parse(config.getPropertyNames(), name -> config.getValue(name, String.class));
    }

    /** The limits named by these configuration properties (the others are ignored). */
    static Map<String, FlowLimit> parse(Iterable<String> names, java.util.function.Function<String, String> value) {
        Map<String, Integer[]> found = new TreeMap<>();
        for (String name : names) {
            if (!name.startsWith(PREFIX)) {
                continue;
            }
            String rest = name.substring(PREFIX.length());
            int dot = rest.lastIndexOf('.');
            String operation = dot < 0 ? "" : rest.substring(0, dot);
            String kind = dot < 0 ? rest : rest.substring(dot + 1);
            if (!operation.matches("[a-z0-9][a-z0-9-]{0,63}") || !(kind.equals("in-flight") || kind.equals("per-second"))) {
                throw new AgentConfigurationException(name + ": a flow limit is " + PREFIX
                        + "<operation>.in-flight or " + PREFIX + "<operation>.per-second");
            }
            int limit = positive(name, value.apply(name));
            found.computeIfAbsent(operation, op -> new Integer[2])[kind.equals("in-flight") ? 0 : 1] = limit;
        }
        Map<String, FlowLimit> limits = new TreeMap<>();
        found.forEach((operation, pair) -> limits.put(operation, new FlowLimit(operation, pair[0], pair[1])));
        return java.util.Collections.unmodifiableMap(limits); // a TreeMap: all() in name order
    }

    private static int positive(String name, String text) {
        try {
            int limit = Integer.parseInt(text.trim());
            if (limit >= 1) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new AgentConfigurationException(name + " must be a whole number of at least 1, was \"" + text + "\"");
    }

    public Optional<FlowLimit> of(String operation) {
        return Optional.ofNullable(limits.get(operation));
    }

    public boolean limits(String operation) {
        return operation != null && limits.containsKey(operation);
    }

    /** Every limit, in operation name order. */
    public Collection<FlowLimit> all() {
        return limits.values();
    }

    public boolean isEmpty() {
        return limits.isEmpty();
    }
}
