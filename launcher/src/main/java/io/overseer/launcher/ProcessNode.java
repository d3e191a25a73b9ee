package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node whose component is one child process of the launcher ({@link ManagedProcess}): the broker, the
 * simulator, every application server. What is the same for all of them lives here: at most one process
 * at a time, launched under the lock so that a start racing a stop cannot leave a second one behind;
 * stop() as SIGTERM then SIGKILL after the node's grace; kill9() as a crash; pid() and isAlive() of that
 * process; its log file; and start() itself, one template for every node: launch, wait until ready, log
 * how long it took. A subclass says how to launch its process ({@link #launch}) and how to tell that it is
 * ready ({@link #awaitReady}), nothing about stopping it.
 *
 * <p>start() launches under the lock and waits outside it, so that stop() can interrupt a start that
 * hangs.
 */
public abstract class ProcessNode implements Node {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final Path logFile;
    private final Duration stopGrace;
    private volatile ManagedProcess process;
    private volatile Host host = Host.LOOPBACK;

    /** {@code stopGrace}: how long stop() waits after SIGTERM before it sends SIGKILL. */
    protected ProcessNode(Path logFile, Duration stopGrace) {
        this.logFile = logFile.toAbsolutePath();
        this.stopGrace = stopGrace;
    }

    /** How log lines name the node ("Artemis", "Simulator", "Payara Micro payara-2"). */
    public abstract String label();

    /**
     * Prepares what the process needs and starts it, not waiting for it; called under the lock with no
     * process of this node running.
     */
    protected abstract ManagedProcess launch() throws IOException;

    /**
     * Launches the process (or takes the one running), waits until it is ready ({@link #awaitReady}), and
     * logs "LABEL WHAT (pid N) in N ms". Throws, with the process's last log lines, if it dies or is not
     * ready in time.
     */
    @Override
    public void start() throws IOException {
        start(this::launch);
    }

    /** As {@link #start()}, starting the process with {@code how} (e.g. the broker's restart as it is). */
    protected final void start(Launch how) throws IOException {
        long t0 = System.nanoTime();
        long logStart = LogTail.size(logFile); // a restart appends: only this start's lines count
        ManagedProcess p = launchOnce(how);
        String ready = awaitReady(p, logStart);
        log.info("{} {} (pid {}) in {} ms", label(), ready, p.pid(), millisSince(t0));
    }

    /**
     * Waits, outside the lock, until the process just launched is ready, or throws; returns what the start's
     * log line says after the label ("ready at http://…"). {@code logStart}: where this start's lines begin
     * in {@link #logFile()}, for a node whose log tells that it is ready.
     */
    protected abstract String awaitReady(ManagedProcess process, long logStart) throws IOException;

    /** The readiness probe of a node that serves a health URL: GET {@code url} answers 200, the process alive. */
    protected final void awaitHttpOk(ManagedProcess process, Duration timeout, String url) {
        Wait.until(label(), timeout, () -> Wait.httpStatus(url) == 200, process::isAlive, () -> process.tail(40));
    }

    /** The running process if there is one, else the one {@link #launch()} starts. */
    protected final ManagedProcess launchOnce() throws IOException {
        return launchOnce(this::launch);
    }

    /** As {@link #launchOnce()}, starting the process with {@code how} (e.g. the broker's restart as it is). */
    protected final synchronized ManagedProcess launchOnce(Launch how) throws IOException {
        ManagedProcess p = process;
        if (p != null && p.isAlive()) {
            return p;
        }
        process = how.launch();
        return process;
    }

    /**
     * This node's process, named as the node, its output appended to the node's log file, started on the
     * node's host (inside its network namespace, when it has one of its own).
     */
    protected final ManagedProcess startProcess(List<String> command, Path workDir, Map<String, String> env)
            throws IOException {
        List<String> placed = new java.util.ArrayList<>(host.commandPrefix());
        placed.addAll(command);
        return ManagedProcess.start(name(), placed, workDir, logFile, env);
    }

    /**
     * Runs this node on {@code host} from its next start on: it listens on the host's address and its
     * process runs in the host's namespace. Loopback unless a node is placed (./run never places one).
     */
    public void placeOn(Host host) {
        this.host = java.util.Objects.requireNonNull(host);
    }

    /** Where the node runs: its address is where it listens and where it is reached. */
    public final Host host() {
        return host;
    }

    /** SIGTERM (the component shuts down cleanly), up to the node's grace, then SIGKILL. */
    @Override
    public final synchronized void stop() {
        if (process != null) {
            process.stop(stopGrace);
            process = null;
            afterProcessEnded(false);
            log.info("{} stopped", label());
        }
    }

    /** SIGKILL to the process and its descendants; the process stays this node's (dead) until stop or start. */
    @Override
    public final synchronized void kill9() {
        if (process != null) {
            process.kill9();
            afterProcessEnded(true);
        }
    }

    /**
     * Called once the node's process has been stopped ({@code crash} false) or killed (true): for what it
     * started outside its own process tree, which stop and kill must not leave behind. Nothing by default.
     */
    protected void afterProcessEnded(boolean crash) {
        // the process tree was all there was
    }

    @Override
    public final boolean isAlive() {
        ManagedProcess p = process;
        return p != null && p.isAlive();
    }

    @Override
    public final long pid() {
        ManagedProcess p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    /** The process last launched, alive or dead, for a watch to wait on; null before start or after stop. */
    protected final ManagedProcess process() {
        return process;
    }

    /** Where the process's output goes (its whole log, for a test that reports what it saw). */
    public final Path logFile() {
        return logFile;
    }

    /** Milliseconds since {@code t0} (a {@link System#nanoTime()}), for the "ready in N ms" lines. */
    protected static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** How a process is started; {@link #launch()} is the usual one. */
    @FunctionalInterface
    protected interface Launch {
        ManagedProcess launch() throws IOException;
    }
}
