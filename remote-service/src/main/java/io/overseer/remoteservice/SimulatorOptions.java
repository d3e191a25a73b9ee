package io.overseer.remoteservice;

import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Where to listen and where to keep the ledger. Command-line flags (read by picocli) win over the
 * {@code SIMULATOR_*} environment variables, which win over the defaults.
 */
record SimulatorOptions(String host, int port, Path dataDir) {

    @Command(name = "java -jar remote-service.jar", usageHelpWidth = 100, sortOptions = false,
            footer = {"", "Each option also reads the environment variable shown; a flag wins."})
    static final class Flags {
        @Option(names = "--host", paramLabel = "HOST",
                description = "address to listen on (env SIMULATOR_HOST, default 127.0.0.1)")
        String host;

        @Option(names = "--port", paramLabel = "PORT",
                description = "port to listen on, 0 for any free one (env SIMULATOR_PORT, default 8090)")
        String port;

        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "where the ledger is kept (env SIMULATOR_DATA_DIR, default ./simulator-data)")
        String dataDir;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
        boolean help;
    }

    static String usage() {
        return new CommandLine(new Flags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The options, or null when --help asked for the usage text instead. */
    static SimulatorOptions parse(String[] args, Map<String, String> env) {
        Flags flags = new Flags();
        CommandLine commandLine = new CommandLine(flags).setExpandAtFiles(false).setOverwrittenOptionsAllowed(true);
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (flags.help) {
            return null;
        }
        String host = flags.host != null ? flags.host : env.getOrDefault("SIMULATOR_HOST", "127.0.0.1");
        String port = flags.port != null ? flags.port : env.getOrDefault("SIMULATOR_PORT", "8090");
        String dataDir = flags.dataDir != null ? flags.dataDir : env.getOrDefault("SIMULATOR_DATA_DIR", "./simulator-data");
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
