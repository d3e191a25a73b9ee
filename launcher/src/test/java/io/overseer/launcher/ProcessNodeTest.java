package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process handling every node shares, on real short-lived shell processes. */
class ProcessNodeTest {

    @TempDir
    Path dir;

    private ShellNode node;

    @AfterEach
    void killLeftovers() {
        if (node != null) {
            node.kill9();
            node.stop();
        }
    }

    @Test
    void launchesOnceWhileTheProcessLivesAndReportsItsPid() throws IOException {
        node = new ShellNode(dir, Duration.ofSeconds(5), "exec sleep 30");
        ManagedProcess first = node.launchOnce();
        ManagedProcess second = node.launchOnce();

        assertSame(first, second);
        assertEquals(1, node.launches.get(), "a living process is not launched again");
        assertTrue(node.isAlive());
        assertEquals(first.pid(), node.pid());
        assertTrue(Files.readString(node.logFile()).contains("===== shell starting at"),
                "the start is recorded in the node's log: " + Files.readString(node.logFile()));
    }

    @Test
    void stopSendsSigtermAndForgetsTheProcess() throws IOException {
        node = new ShellNode(dir, Duration.ofSeconds(5), "exec sleep 30");
        ManagedProcess p = node.launchOnce();

        node.stop();

        assertFalse(p.isAlive());
        assertEquals(128 + 15, p.exitValueOr(-1), "ended by SIGTERM");
        assertFalse(node.isAlive());
        assertEquals(-1, node.pid());
        assertNull(node.process());
        node.stop(); // twice is fine
    }

    @Test
    void stopKillsAProcessThatIgnoresSigtermOnceTheGraceHasPassed() throws IOException {
        node = new ShellNode(dir, Duration.ofMillis(300), "trap '' TERM; echo 'trap''ped'; exec sleep 30");
        ManagedProcess p = node.launchOnce();
        Wait.until("the shell to ignore SIGTERM", Duration.ofSeconds(10),
                () -> LogTail.lastLines(node.logFile(), 5).contains("trapped"), p::isAlive, () -> p.tail(5));

        long t0 = System.nanoTime();
        node.stop();

        assertEquals(128 + 9, p.exitValueOr(-1), "ended by SIGKILL");
        assertTrue(System.nanoTime() - t0 >= Duration.ofMillis(300).toNanos(), "not before the grace");
        assertFalse(node.isAlive());
    }

    @Test
    void stopTakesTheProcessDescendantsAlong() throws IOException {
        node = new ShellNode(dir, Duration.ofSeconds(5), "sleep 30 & echo 'ch''ild='$!; wait");
        ManagedProcess p = node.launchOnce();
        Wait.until("the child's pid", Duration.ofSeconds(10),
                () -> LogTail.lastLines(node.logFile(), 5).contains("child="), p::isAlive, () -> p.tail(5));
        String log = LogTail.lastLines(node.logFile(), 5);
        long child = Long.parseLong(log.substring(log.lastIndexOf("child=") + 6).lines().findFirst().orElseThrow().trim());
        assertTrue(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "child " + child + " runs");

        node.stop();

        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "child " + child + " stopped");
    }

    @Test
    void kill9IsACrashAfterWhichTheNextStartLaunchesAgain() throws IOException {
        node = new ShellNode(dir, Duration.ofSeconds(5), "exec sleep 30");
        ManagedProcess crashed = node.launchOnce();

        node.kill9();

        assertEquals(128 + 9, crashed.exitValueOr(-1), "ended by SIGKILL");
        assertFalse(node.isAlive());
        assertEquals(-1, node.pid());
        assertSame(crashed, node.process(), "a watch still sees the dead process, to read its exit and log");

        ManagedProcess restarted = node.launchOnce();
        assertEquals(2, node.launches.get());
        assertTrue(restarted.isAlive());
        assertNotEquals(crashed.pid(), restarted.pid());
    }

    @Test
    void stopAndKillBeforeAnyStartDoNothing() {
        node = new ShellNode(dir, Duration.ofSeconds(5), "exec sleep 30");

        node.kill9();
        node.stop();

        assertFalse(node.isAlive());
        assertEquals(-1, node.pid());
        assertEquals(0, node.launches.get());
    }

    @Test
    void startLaunchesThenWaitsUntilReadyByTheLinesOfThisStartAlone() throws Exception {
        node = new ShellNode(dir, Duration.ofSeconds(5), "echo 'rea''dy'; exec sleep 30", "ready");
        node.start();

        assertTrue(node.isAlive());
        assertEquals(List.of(0L), node.logStarts, "the first start reads the log from its beginning");
        node.stop();
        long before = Files.size(node.logFile());
        node.start();

        assertTrue(node.isAlive());
        assertEquals(List.of(0L, before), node.logStarts, "a restart appends: its readiness reads only its own lines");
    }

    @Test
    void aStartWhoseProcessDiesBeforeItIsReadyFailsWithItsLastLines() {
        node = new ShellNode(dir, Duration.ofSeconds(5), "echo 'boo''m'; exit 3", "ready");

        IllegalStateException failed = assertThrows(IllegalStateException.class, node::start);

        assertTrue(failed.getMessage().contains("process died before it was ready"), failed.getMessage());
        assertTrue(failed.getMessage().contains("boom"), failed.getMessage());
    }

    /**
     * A node whose process is {@code sh -c script}, counting its launches. The log starts with the command
     * line, so a script's marker is quoted apart ({@code 'trap''ped'}) to be found only once it is printed.
     */
    private static final class ShellNode extends ProcessNode {

        final AtomicInteger launches = new AtomicInteger();
        final List<Long> logStarts = new CopyOnWriteArrayList<>();
        private final Path workDir;
        private final String script;
        private final String readyMarker;

        ShellNode(Path dir, Duration grace, String script) {
            this(dir, grace, script, null);
        }

        ShellNode(Path dir, Duration grace, String script, String readyMarker) {
            super(dir.resolve("logs/shell.log"), grace);
            this.workDir = dir.resolve("work");
            this.script = script;
            this.readyMarker = readyMarker;
        }

        @Override
        public String name() {
            return "shell";
        }

        @Override
        public String label() {
            return "Shell";
        }

        /** Ready once this start's own lines hold the marker; launched only without one. */
        @Override
        protected String awaitReady(ManagedProcess process, long logStart) {
            logStarts.add(logStart);
            if (readyMarker == null) {
                return "launched";
            }
            Wait.until(label(), Duration.ofSeconds(20), () -> LogTail.since(logFile(), logStart).contains(readyMarker),
                    process::isAlive, () -> process.tail(20));
            return "ready";
        }

        @Override
        protected ManagedProcess launch() throws IOException {
            launches.incrementAndGet();
            return startProcess(List.of("/bin/sh", "-c", script), workDir, Map.of());
        }
    }
}
