package io.overseer.chaos;

import io.overseer.launcher.AppServerNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread dump of an instance that is alive but not ready, taken before the runner gives up and stops the
 * stack: without it a stall leaves only its log, which says what the instance last did, not what its threads
 * wait for. Best effort — a dump that cannot be taken is logged, never fails the run a second time.
 */
final class ThreadDumps {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadDumps.class);

    private ThreadDumps() {
    }

    static void save(AppServerNode node, String why) {
        if (!node.isAlive()) {
            LOG.warn("{} is not running: no thread dump ({})", node.label(), why);
            return;
        }
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Path out = node.logFile().resolveSibling(node.name() + "-threads-" + why + "-" + System.currentTimeMillis() + ".txt");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(node.pid()), "Thread.print", "-l")
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                LOG.warn("Thread dump of {} did not finish within 60 s; partial dump in {}", node.label(), out);
                return;
            }
            LOG.warn("{} ({}): thread dump in {} ({} bytes)", node.label(), why, out, Files.size(out));
        } catch (Exception e) {
            LOG.warn("Could not take a thread dump of {} ({}): {}", node.label(), why, e.toString());
        }
    }
}
