package io.overseer.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One child process with its output appended to a log file, and the stop/kill semantics the launcher needs:
 * graceful stop is SIGTERM then SIGKILL after a grace period, and both take the process's descendants
 * along, so nothing is left behind even if a script forked something.
 */
public final class ManagedProcess {

    private static final Logger LOG = LoggerFactory.getLogger(ManagedProcess.class);
    private static final Path SETSID = findSetsid();

    private final String name;
    private final Process process;
    private final Path logFile;

    private ManagedProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code command} in its own session when setsid(1) exists: a Ctrl-C in the terminal then reaches
     * only the launcher, which stops the children in order instead of all of them dying at once (and the
     * watchdog mistaking Payara's exit for a crash).
     */
    public static ManagedProcess start(String name, List<String> command, Path workDir, Path logFile,
                                       Map<String, String> extraEnv) throws IOException {
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        Files.createDirectories(workDir);
        Files.writeString(logFile, "===== " + name + " starting at " + Instant.now() + ": "
                + OwnerOnly.redacted(command) + System.lineSeparator(),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        List<String> cmd = new ArrayList<>();
        if (SETSID != null) {
            cmd.add(SETSID.toString());
        }
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(extraEnv);
        Process p = pb.start();
        LOG.debug("{} started as pid {}", name, p.pid());
        return new ManagedProcess(name, p, logFile);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public ProcessHandle toHandle() {
        return process.toHandle();
    }

    public CompletableFuture<Process> onExit() {
        return process.onExit();
    }

    public int exitValueOr(int fallback) {
        return process.isAlive() ? fallback : process.exitValue();
    }

    public Path logFile() {
        return logFile;
    }

    /** SIGTERM, wait up to {@code grace}, then SIGKILL; descendants are handled the same way. */
    public void stop(Duration grace) {
        terminate(process.toHandle(), grace, name);
    }

    /** SIGKILL to the process and its descendants: a crash, as the tests and the chaos runner cause it. */
    public void kill9() {
        kill9(process.toHandle());
    }

    /** Last lines of the log, for error messages. */
    public String tail(int lines) {
        return LogTail.lastLines(logFile, lines);
    }

    public static void terminate(ProcessHandle root, Duration grace, String what) {
        if (!root.isAlive()) {
            return;
        }
        // Snapshot first: once the parent is gone, its children are re-parented and no longer listed.
        List<ProcessHandle> tree = snapshot(root);
        root.destroy();
        if (!waitFor(root, grace)) {
            LOG.warn("{} (pid {}) did not stop within {} s, killing it", what, root.pid(), grace.toSeconds());
            root.destroyForcibly();
            waitFor(root, Duration.ofSeconds(10));
        }
        for (ProcessHandle h : tree) {
            if (h.isAlive()) {
                h.destroy();
                if (!waitFor(h, Duration.ofSeconds(5))) {
                    h.destroyForcibly();
                }
            }
        }
    }

    /** SIGKILL to {@code root} and its descendants, then up to 10 s for {@code root} to be gone. */
    public static void kill9(ProcessHandle root) {
        snapshot(root).forEach(ProcessHandle::destroyForcibly);
        waitFor(root, Duration.ofSeconds(10));
    }

    private static List<ProcessHandle> snapshot(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        return tree;
    }

    static boolean waitFor(ProcessHandle h, Duration timeout) {
        try {
            h.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !h.isAlive();
        } catch (Exception e) {
            return !h.isAlive();
        }
    }

    private static Path findSetsid() {
        for (String p : new String[] {"/usr/bin/setsid", "/bin/setsid"}) {
            Path path = Path.of(p);
            if (Files.isExecutable(path)) {
                return path;
            }
        }
        return null;
    }
}
