package io.overseer.launcher;

/** The "it is up, here is where" banner: everything a person needs to try the demo. */
final class Summary {

    private Summary() {
    }

    static String render(Stack stack) {
        LauncherOptions o = stack.options();
        String http = "http://localhost:" + o.httpPort();
        StringBuilder sb = new StringBuilder();
        String line = "=".repeat(78);
        sb.append('\n').append(line).append('\n')
          .append("  Overseer is running\n")
          .append(line).append('\n')
          .append(row("API", http + "/api/orders   (HTTP Basic, e.g. curl -u demo:demo)"))
          .append(row("OpenAPI", http + "/openapi"))
          .append(row("Health", http + "/health/ready"));
        if (stack.broker() != null) {
            sb.append(row("Artemis console", stack.broker().consoleUrl() + "   (login demo/demo)"))
              .append(row("Broker", "tcp://127.0.0.1:" + o.brokerPort()));
        } else {
            sb.append(row("Broker (external)", "tcp://" + o.brokerHost() + ":" + o.brokerPort()));
        }
        sb.append(row("Simulator", "http://localhost:" + o.simulatorPort() + "   (GET /health)"));
        if (stack.postgres() != null) {
            sb.append(row("JDBC", o.effectiveDbUrl() + "   (user overseer / password overseer)"));
        } else {
            sb.append(row("JDBC (external)", o.effectiveDbUrl()));
        }
        sb.append(row("Logs", stack.logDir().toString()))
          .append(row("Data", o.dataDir().toString()))
          .append('\n');
        if (stack.broker() != null) {
            sb.append("  Local demo user demo/demo holds every role; created by ./run only, never a default elsewhere.\n");
        }
        sb.append("  Payara Micro is restarted automatically if it dies.\n")
          .append("  Ctrl-C stops everything.\n")
          .append(line).append('\n');
        return sb.toString();
    }

    private static String row(String label, String value) {
        return String.format("  %-18s %s%n", label, value);
    }
}
