package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.Templates;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Smoke test of the EAR on Payara Server 6 (from Maven Central): a fresh domain gets the same
 * server-config post-boot file as Payara Micro (through asadmin multimode), the EAR is deployed between
 * server-config's http-closed and http-open files (the HTTP port closed meanwhile, as docs/health.md
 * asks), and an order goes through to Processed against the shared PostgreSQL, Artemis and simulator.
 */
class EarOnPayaraServerIT {

    private static final Logger LOG = Logger.getLogger(EarOnPayaraServerIT.class.getName());
    private static final String DOMAIN = "overseer-it";

    private static Path home;
    private static int portBase;
    private static boolean portClosedDuringDeployment;

    @BeforeAll
    static void startDomainAndDeploy() throws Exception {
        home = Path.of(System.getProperty("overseer.payara.home"));
        Files.walk(home.resolve("bin")).filter(Files::isRegularFile).forEach(f -> f.toFile().setExecutable(true));
        Files.walk(home.resolve("glassfish/bin")).filter(Files::isRegularFile).forEach(f -> f.toFile().setExecutable(true));
        portBase = freePortBase();
        Path domains = TestStack.workDir().resolve("payara-domains");
        asadmin("create-domain", "--nopassword=true", "--portbase", Integer.toString(portBase),
                "--domaindir", domains.toString(), DOMAIN);
        Files.copy(TestStack.layout().postgresqlJar(), domains.resolve(DOMAIN + "/lib/postgresql.jar"));
        asadmin("start-domain", "--domaindir", domains.toString(), DOMAIN);
        // Closed before the resource adapter is deployed: from then on Payara's readiness says UP with no checks.
        admin("multimode", "--file", listenerCommands(TestStack.layout().httpClosedTemplate(), "http-closed.asadmin"));
        portClosedDuringDeployment = free(portBase + 80);
        admin("multimode", "--file", TestStack.writePostBoot(TestStack.workDir().resolve("payara-server-post-boot.asadmin")).toString());
        admin("create-system-properties", "overseer.remote-service.url=" + Templates.asadminEscape(TestStack.simulatorUrl()));
        admin("deploy", "--name", "overseer", Path.of(System.getProperty("overseer.deploy.dir"), "overseer.ear").toString());
        admin("multimode", "--file", listenerCommands(TestStack.layout().httpOpenTemplate(), "http-open.asadmin"));
    }

    /** server-config's command file for Payara Server's HTTP listener. */
    private static String listenerCommands(Path template, String name) throws IOException {
        Path file = TestStack.workDir().resolve("payara-server-" + name);
        Files.writeString(file, Templates.substitute(Files.readString(template), Map.of("HTTP_LISTENER", "http-listener-1")));
        return file.toString();
    }

    @AfterAll
    static void stopDomain() throws Exception {
        if (home != null && portBase > 0) {
            asadmin("stop-domain", "--kill=true", "--domaindir", TestStack.workDir().resolve("payara-domains").toString(), DOMAIN);
        }
    }

    @Test
    void anOrderGoesThroughTheEarToProcessed() {
        OrdersApi api = new OrdersApi(URI.create("http://127.0.0.1:" + (portBase + 80) + "/"));

        String orderId = api.submit("c-ear");

        assertEquals("Processed", api.awaitState(orderId, Duration.ofSeconds(90), "Processed").get("processState").asText());
        assertEquals(3, TestStack.simulator().effects(orderId).size(), "one effect per step of the order workflow");
    }

    /** The EAR's own checks appear in Payara Server's health endpoints, and say UP. */
    @Test
    void readinessAndLivenessNameTheApplicationsChecks() {
        assertTrue(portClosedDuringDeployment, "nothing listened on the HTTP port while the EAR was deployed");
        URI root = URI.create("http://127.0.0.1:" + (portBase + 80) + "/");
        Poll.until("readiness UP on Payara Server", Duration.ofSeconds(60),
                () -> Http.get(root.resolve("health/ready")).status() == 200);
        Http.Reply ready = Http.get(root.resolve("health/ready"));
        Http.Reply live = Http.get(root.resolve("health/live"));

        for (String check : List.of("application", "database", "broker")) {
            assertTrue(ready.body().contains("\"" + check + "\""), ready.body());
        }
        assertEquals(200, live.status(), live.body());
        for (String check : List.of("workers", "database-pool")) {
            assertTrue(live.body().contains("\"" + check + "\""), live.body());
        }
    }

    private static void admin(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("--port", Integer.toString(portBase + 48)));
        command.addAll(List.of(args));
        asadmin(command.toArray(String[]::new));
    }

    private static void asadmin(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/asadmin").toString(), "--interactive=false"));
        command.addAll(List.of(args));
        Path log = TestStack.workDir().resolve("asadmin.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("asadmin " + String.join(" ", args) + " timed out; see " + log);
        }
        LOG.info("asadmin " + String.join(" ", args) + " → " + process.exitValue());
        if (process.exitValue() != 0) {
            throw new AssertionError("asadmin " + String.join(" ", args) + " failed (" + process.exitValue() + "):\n"
                    + Files.readString(log));
        }
    }

    /** A port base whose admin (+48) and HTTP (+80, +81) ports are free. */
    private static int freePortBase() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = 20_000 + ThreadLocalRandom.current().nextInt(300) * 100;
            if (free(base + 48) && free(base + 80) && free(base + 81) && free(base + 37) && free(base + 76)) {
                return base;
            }
        }
        throw new IllegalStateException("no free port base");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
