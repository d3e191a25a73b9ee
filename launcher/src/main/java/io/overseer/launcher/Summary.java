package io.overseer.launcher;

import java.util.List;

/** The "it is up, here is where" banner: everything a person needs to try the demo. */
final class Summary {

    private Summary() {
    }

    static String render(Stack stack) {
        LauncherOptions o = stack.options();
        List<AppInstance> instances = stack.instances();
        // 127.0.0.1, the default, reads as "localhost" as it always did; another address is printed as given.
        String host = o.bindAddress() == null || o.bindAddress().equals("127.0.0.1") ? "localhost" : o.bindAddress();
        StringBuilder sb = new StringBuilder();
        String line = "=".repeat(78);
        sb.append('\n').append(line).append('\n')
          .append(instances.size() == 1 ? "  Overseer is running\n"
                  : "  Overseer is running: " + instances.size() + " instances, one database and "
                          + stack.brokers().headline() + "\n")
          .append(line).append('\n');
        appendServers(sb, instances, host, o.runtime());
        if (o.runtime() == AppRuntime.PAYARA_SERVER) {
            int admin = PayaraServerNode.domainPorts(o.httpPort()).get("admin");
            sb.append(row("Payara admin", "asadmin --port " + admin + "   (no password, so 127.0.0.1 only)"));
        }
        if (o.runtime() == AppRuntime.WILDFLY) {
            // WildFly answers health on its management port, not beside the API (docs/health.md).
            sb.append(row("Health (WildFly)", stack.appServer().healthUrl() + "/ready   (management port; /health/ready"
                    + " on the API port is not served)"));
        }
        stack.brokers().summaryRows().forEach(r -> sb.append(row(r)));
        sb.append(row("Simulator", "http://localhost:" + o.simulatorPort() + "   (GET /health)"));
        stack.tracing().ifPresent(tracing -> sb
                .append(row("Traces (Zipkin)", tracing.uiUrl() + "   (API " + tracing.zipkinUrl() + "/api/v2/)"))
                .append(row("OTLP relay", tracing.otlpEndpoint() + TraceRelay.TRACES_PATH
                        + "   (OTLP/HTTP protobuf, to Zipkin; docs/tracing.md)")));
        stack.database().summaryRows().forEach(r -> sb.append(row(r)));
        sb.append(row("Logs", stack.logDir().toString()))
          .append(row("Data", o.dataDir().toString()))
          .append('\n');
        if (stack.brokers().local()) {
            sb.append("  Local demo users demo/demo (every role) and viewer/viewer (read only); created by ./run only,"
                    + " never a default elsewhere.\n");
        }
        sb.append(instances.size() == 1 ? "  " + stack.appServer().label() + " is restarted automatically if it dies.\n"
                : "  Each instance is restarted automatically if it dies; the others keep serving meanwhile.\n")
          .append(note(stack.brokers().restartNote()))
          .append(note(stack.database().restartNote()))
          .append("  Ctrl-C stops everything.\n")
          .append(line).append('\n');
        return sb.toString();
    }

    /**
     * The operator console first (docs/console.md), then for one instance its API, OpenAPI and health as
     * always; for several, each one's API, as any of them serves it.
     */
    private static void appendServers(StringBuilder sb, List<AppInstance> instances, String host, AppRuntime runtime) {
        String http = "http://" + host + ":" + instances.get(0).httpPort();
        String basic = "   (HTTP Basic, e.g. curl -u demo:demo)";
        sb.append(row("Console", http + "/console/   (demo/demo acts, viewer/viewer reads"
                + (instances.size() == 1 ? ")" : "; the same on every instance)")));
        if (instances.size() == 1) {
            sb.append(row("API", http + "/api/orders" + basic))
              .append(row("OpenAPI", http + "/openapi"));
            if (runtime != AppRuntime.WILDFLY) {
                sb.append(row("Health", http + "/health/ready"));
            }
            return;
        }
        for (AppInstance instance : instances) {
            sb.append(row("API " + instance.name(), "http://" + host + ":" + instance.httpPort() + "/api/orders"
                    + (instance.number() == 1 ? basic : "")));
        }
        sb.append(row("OpenAPI", http + "/openapi   (the same on every instance)"))
          .append(row("Health", http + "/health/ready   (each instance answers for itself)"));
    }

    private static String note(String sentence) {
        return sentence.isEmpty() ? "" : "  " + sentence + "\n";
    }

    private static String row(SummaryRow row) {
        return row(row.label(), row.value());
    }

    private static String row(String label, String value) {
        return String.format("  %-18s %s%n", label, value);
    }
}
