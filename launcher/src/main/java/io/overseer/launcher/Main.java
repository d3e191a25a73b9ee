package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of overseer-launcher.jar (and of ./run). Exit codes: 0 after a normal stop, 1 when the stack
 * could not start, 2 for a usage error.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) {
        LauncherOptions options;
        try {
            options = LauncherOptions.parse(args, System.getenv());
        } catch (UsageException e) {
            System.err.println("overseer: " + e.getMessage());
            System.err.println("Try --help.");
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(LauncherCommand.usage());
            return;
        }
        StackLayout stackLayout = options.stackDir() != null
                ? StackLayout.fromDirectory(options.stackDir())
                : StackLayout.besideLauncher();
        StackLayout layout;
        try {
            layout = options.application() != null ? stackLayout.withApplication(staged(options)) : stackLayout;
        } catch (IOException e) {
            System.err.println("overseer: cannot copy " + options.application() + " into " + options.dataDir() + ": " + e.getMessage());
            System.exit(1);
            return;
        }

        Stack stack = new Stack(options, layout);
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C / SIGTERM: the JVM runs this hook; children run in their own sessions so they wait for it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("Stopping the stack...");
            stack.stop();
            LOG.info("Everything stopped.");
            stopped.countDown();
        }, "overseer-shutdown"));

        LOG.info("Starting Overseer stack: data {}, stack {}", options.dataDir(), layout);
        try {
            stack.start();
        } catch (Exception e) {
            LOG.error("The stack could not start: {}", e.getMessage());
            LOG.debug("start failure", e);
            System.exit(1);
            return;
        }
        System.out.print(stack.summary());
        System.out.flush();
        try {
            stopped.await(); // only the shutdown hook ends the launcher
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * --application's file, copied into the data directory as overseer.war or overseer.ear: Payara Micro names a
     * deployment after its file, and the launcher's scripts open the HTTP port for the one named "overseer".
     */
    private static Path staged(LauncherOptions options) throws IOException {
        String name = options.application().getFileName().toString().endsWith(".war") ? "overseer.war" : "overseer.ear";
        Path staged = Files.createDirectories(options.dataDir().resolve("application")).resolve(name);
        Files.copy(options.application(), staged, StandardCopyOption.REPLACE_EXISTING);
        return staged;
    }
}
