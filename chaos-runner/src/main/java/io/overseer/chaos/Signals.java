package io.overseer.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * SIGSTOP and SIGCONT for a process and its descendants (the JVM has no API for them): the broker runs as a
 * script with java under it, and freezing only the script would freeze nothing that matters.
 */
final class Signals {

    private Signals() {
    }

    static void stopTree(long pid) {
        signalTree(pid, "STOP");
    }

    static void continueTree(long pid) {
        signalTree(pid, "CONT");
    }

    private static void signalTree(long pid, String signal) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, Long.toString(pid)));
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> command.add(Long.toString(d.pid()))));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(kill.getInputStream().readAllBytes());
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + signal + " to " + pid, e);
        }
    }
}
