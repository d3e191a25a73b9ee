package io.overseer.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of ./chaos. Exit codes: 0 no violation, 1 violations, 2 usage error, 3 the run could not be
 * carried out (the stack did not start, a node could not be brought back): then there is no verdict.
 * The report goes to standard output, its last line one JSON object; the log goes to standard error.
 */
public final class Chaos {

    private static final Logger LOG = LoggerFactory.getLogger(Chaos.class);

    private Chaos() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("overseer.root", ".")).toAbsolutePath().normalize();
        ChaosOptions options;
        try {
            options = ChaosOptions.parse(args, root);
        } catch (ChaosOptions.UsageException e) {
            System.err.println("chaos: " + e.getMessage());
            System.err.println("Try --help.");
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(ChaosOptions.usage());
            return;
        }
        fresh(options.out());
        ChaosStack stack = new ChaosStack(root, options.out().resolve("data"), options.instances(), options.seed(),
                options.brokerHa(), options.dbHa(), options.partitions());
        // Ctrl-C or SIGTERM: the stack must not outlive the runner (a paused node is resumed by the injector).
        Thread hook = new Thread(stack::close, "chaos-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Report report;
        try {
            report = new ChaosRun(options, root).run(stack);
        } catch (Exception e) {
            LOG.error("The chaos run could not be carried out: {}", e.toString(), e);
            System.exit(3);
            return;
        } finally {
            stack.close();
        }
        Files.writeString(options.out().resolve("report.txt"), report.text() + report.jsonLine() + "\n");
        Files.writeString(options.out().resolve("violations.txt"), report.allViolations());
        System.out.print(report.text());
        System.out.println("report: " + options.out().resolve("report.txt") + "; logs: " + options.out().resolve("data/logs"));
        System.out.println(report.jsonLine());
        System.out.flush();
        System.exit(report.clean() ? 0 : 1);
    }

    /** A run starts from an empty database and broker: the report directory's data of an earlier run goes. */
    private static void fresh(Path out) throws Exception {
        Path data = out.resolve("data");
        if (Files.exists(data)) {
            try (Stream<Path> s = Files.walk(data)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(out);
    }
}
