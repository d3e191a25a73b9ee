package io.overseer.agent;

import io.overseer.agent.api.RemoteService;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which service performs an operation: the one service that claims it ({@link RemoteService#performs}),
 * else the one catch-all HTTP service. Two services claiming one operation, two catch-alls, two
 * services of one name, or an operation nobody performs are configuration errors, never a guess.
 */
final class ServiceDirectory {

    /** What {@link RemoteService#name()} promises a name is. */
    static final String CODED_NAME = "[A-Za-z0-9._-]{1,64}";

    private final List<RemoteService> services;
    private final RemoteService catchAll;

    ServiceDirectory(List<RemoteService> services) {
        this.services = List.copyOf(services);
        Set<String> names = new HashSet<>();
        for (RemoteService service : services) {
            // The agent API's promise (RemoteService.name): the name keys settings and labels metrics.
            if (service.name() == null || !service.name().matches(CODED_NAME)) {
                throw new AgentConfigurationException("Remote service " + service.getClass().getName() + " is named '"
                        + service.name() + "': a name is 1 to 64 letters, digits, '.', '_' or '-'");
            }
            if (!names.add(service.name())) {
                throw new AgentConfigurationException("Two remote services are named '" + service.name() + "'");
            }
        }
        List<RemoteService> catchAlls = services.stream()
                .filter(s -> s instanceof HttpRemoteService http && http.isCatchAll()).toList();
        if (catchAlls.size() > 1) {
            throw new AgentConfigurationException("Only one service may take every other operation (operations=*): "
                    + names(catchAlls));
        }
        this.catchAll = catchAlls.isEmpty() ? null : catchAlls.get(0);
    }

    RemoteService serviceFor(String operation) {
        List<RemoteService> claiming = services.stream().filter(s -> s.performs(operation)).toList();
        if (claiming.size() > 1) {
            throw new AgentConfigurationException("Operation '" + operation + "' is claimed by several services: "
                    + names(claiming));
        }
        if (claiming.size() == 1) {
            return claiming.get(0);
        }
        if (catchAll == null) {
            throw new AgentConfigurationException("No remote service performs operation '" + operation
                    + "'; services: " + names(services));
        }
        return catchAll;
    }

    List<RemoteService> services() {
        return services;
    }

    private static String names(List<RemoteService> services) {
        return services.stream().map(RemoteService::name).collect(Collectors.joining(", "));
    }
}
