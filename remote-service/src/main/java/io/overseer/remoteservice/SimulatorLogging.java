package io.overseer.remoteservice;

/** Console logging for the standalone process: one line per record, so launchers can grep the port. */
final class SimulatorLogging {

    private static final String FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";

    private SimulatorLogging() {
    }

    /** Must run before the first logger is created; an explicit -D setting is left alone. */
    static void configureConsole() {
        if (System.getProperty(FORMAT_PROPERTY) == null) {
            System.setProperty(FORMAT_PROPERTY, "%1$tFT%1$tT.%1$tL %4$s %3$s - %5$s%6$s%n");
        }
    }
}
