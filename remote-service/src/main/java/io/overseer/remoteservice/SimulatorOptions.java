package io.overseer.remoteservice;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Where to listen and where to keep the ledger. Command-line flags win over the
 * {@code SIMULATOR_*} environment variables, which win over the defaults.
 */
record SimulatorOptions(String host, int port, Path dataDir) {

    static final String USAGE = "Usage: java -jar remote-service.jar [--host 127.0.0.1] [--port 8090]"
            + " [--data-dir ./simulator-data]   (env: SIMULATOR_HOST, SIMULATOR_PORT, SIMULATOR_DATA_DIR)";

    private static final Set<String> KNOWN_FLAGS = Set.of("--host", "--port", "--data-dir");

    static SimulatorOptions parse(String[] args, Map<String, String> env) {
        String host = env.getOrDefault("SIMULATOR_HOST", "127.0.0.1");
        String port = env.getOrDefault("SIMULATOR_PORT", "8090");
        String dataDir = env.getOrDefault("SIMULATOR_DATA_DIR", "./simulator-data");
        for (int i = 0; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            String flag = eq > 0 ? args[i].substring(0, eq) : args[i];
            if (!KNOWN_FLAGS.contains(flag)) {
                throw new IllegalArgumentException("Unknown option " + flag);
            }
            String value;
            if (eq > 0) {
                value = args[i].substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("Missing value for " + flag);
            }
            switch (flag) {
                case "--host" -> host = value;
                case "--port" -> port = value;
                case "--data-dir" -> dataDir = value;
                default -> throw new IllegalArgumentException("Unknown option " + flag);
            }
        }
        return new SimulatorOptions(requireText(host, "host"), parsePort(port),
                Path.of(requireText(dataDir, "data dir")));
    }

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // Reported below with the offending value.
        }
        throw new IllegalArgumentException("Port must be 0-65535, got '" + text + "'");
    }

    private static String requireText(String value, String what) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("The " + what + " must not be blank");
        }
        return value.trim();
    }
}
