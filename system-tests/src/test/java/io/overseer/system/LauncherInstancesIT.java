package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.Stack;
import io.overseer.launcher.Wait;
import io.overseer.support.ListeningSockets;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./run --instances 2}, as the launcher's Stack builds it, with no address given: every process it
 * starts listens on loopback only. It has a PostgreSQL, a broker and a
 * simulator of its own: two application servers on consecutive ports, each with its own work directory.
 * A kill -9 of the second stops nothing else — the first keeps answering, untouched, while the
 * launcher restarts the second alone — and stopping the stack (what Ctrl-C and SIGTERM do) stops both.
 */
class LauncherInstancesIT {

    private static final Logger LOG = Logger.getLogger(LauncherInstancesIT.class.getName());
    private static final Duration RESTART = Duration.ofMinutes(3);

    private Stack stack;

    @AfterEach
    void stopStack() {
        if (stack != null) {
            stack.stop();
        }
    }

    @Test
    void aKilledInstanceIsRestartedAloneWhileTheOtherKeepsServing() throws Exception {
        int http = twoFreePorts();
        // No --bind-address: loopback is the default. The broker speaks TLS only (--broker-tls, below).
        LauncherOptions options = LauncherOptions.parse(new String[] {"--instances", "2", "--broker-tls",
                "--http-port", Integer.toString(http), "--simulator-port", free(), "--broker-port", free(),
                "--console-port", free(), "--db-port", free(),
                "--data-dir", TestStack.workDir().resolve("launcher-instances").toString()}, Map.of());
        stack = new Stack(options, TestStack.layout());
        stack.start();
        AppServerNode first = stack.appServers().get(0);
        AppServerNode second = stack.appServers().get(1);
        assertEquals(List.of("payara", "payara-2"), List.of(first.name(), second.name()));
        assertEquals(List.of("http://127.0.0.1:" + http, "http://127.0.0.1:" + (http + 1)),
                List.of(first.baseUrl(), second.baseUrl()));
        String summary = stack.summary();
        assertTrue(summary.contains("http://localhost:" + http + "/api/orders")
                && summary.contains("http://localhost:" + (http + 1) + "/api/orders"), summary);

        assertOnlyLoopback(List.of(stack.postgres().pid(), stack.broker().pid(), stack.simulator().pid(),
                first.pid(), second.pid()));
        assertNoDataGrid(options.dataDir().resolve("logs"), List.of(first.name(), second.name()));
        assertNoSecretReadableByOthers(options.dataDir(), stack.broker().password());
        assertNoSecretReadableByOthers(options.dataDir(), stack.brokerTls().orElseThrow().keyStorePassword());
        anOrderRunsEndToEndOverTls(options.brokerPort());

        long firstPid = first.pid();
        long secondPid = second.pid();
        second.kill9();
        assertFalse(second.isAlive());
        assertTrue(ready(first), "the first instance answers while the second is dead");
        Poll.until("the launcher to restart the second instance", RESTART,
                () -> second.pid() != -1 && second.pid() != secondPid && ready(second));
        LOG.info("payara-2 restarted as pid " + second.pid() + " (was " + secondPid + "); payara still pid " + firstPid);
        assertEquals(firstPid, first.pid(), "the first instance was left alone");
        assertTrue(ready(first));

        long restartedPid = second.pid();
        stack.stop();
        stack = null;
        for (long pid : new long[] {firstPid, restartedPid}) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " stopped");
        }
        assertNotEquals(secondPid, restartedPid);
    }

    /**
     * TLS end to end (issue 16), with the certificate ./run --broker-tls made for this stack: the broker's
     * one acceptor speaks TLS only, so the application servers reached it over TLS (they are ready, and the
     * order is processed), and a legacy client submits over TLS trusting that certificate and hears every
     * status on its temporary queue. A plain TCP client is turned away.
     */
    private void anOrderRunsEndToEndOverTls(int brokerPort) throws Exception {
        String tlsUrl = io.overseer.launcher.BrokerWiring.single("127.0.0.1", brokerPort).withTls(stack.brokerTls().orElseThrow())
                .clientUrl();
        String customer = "c-tls-" + java.util.UUID.randomUUID();
        try (var factory = new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(tlsUrl,
                LauncherOptions.DEMO_USER, LauncherOptions.DEMO_PASSWORD);
             jakarta.jms.JMSContext jms = factory.createContext()) {
            jakarta.jms.TemporaryQueue replies = jms.createTemporaryQueue();
            jakarta.jms.JMSConsumer consumer = jms.createConsumer(replies);
            jms.createProducer().setJMSReplyTo(replies).send(jms.createQueue("orders"),
                    io.overseer.support.OrdersApi.order(customer, "A-1", 1));
            List<io.overseer.support.Notification> notifications =
                    io.overseer.support.Notification.untilFinal(consumer, Duration.ofSeconds(90));
            assertEquals("processed", notifications.get(notifications.size() - 1).event(), notifications.toString());
        }
        try (var plain = new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(
                "tcp://127.0.0.1:" + brokerPort + "?callTimeout=5000&reconnectAttempts=0&initialConnectAttempts=1",
                LauncherOptions.DEMO_USER, LauncherOptions.DEMO_PASSWORD)) {
            org.junit.jupiter.api.Assertions.assertThrows(jakarta.jms.JMSRuntimeException.class,
                    () -> plain.createContext().close(), "a client without TLS is turned away");
        }
    }

    /**
     * Every TCP socket that the stack's processes (and their children: PostgreSQL's backends) listen on is
     * on a loopback address: the HTTP ports, the broker and its console, PostgreSQL, the
     * simulator. At least one per process, or the listing saw nothing.
     */
    private static void assertOnlyLoopback(List<Long> pids) throws Exception {
        ListeningSockets sockets = ListeningSockets.of(pids);
        LOG.info("Listening sockets of the stack: " + sockets.sockets());
        assertTrue(sockets.beyondLoopback().isEmpty(), "listening beyond loopback: " + sockets.beyondLoopback());
    }

    /**
     * No instance runs Payara's data grid (--nohazelcast): none announced a member address in its log. A
     * listing of sockets after the start would miss a grid that listened only while the server started, as
     * the grid did when a post-boot command moved it to loopback: on the machine's own address at first.
     */
    private static void assertNoDataGrid(java.nio.file.Path logs, List<String> instances) throws Exception {
        for (String instance : instances) {
            List<String> announced = java.nio.file.Files.readAllLines(logs.resolve(instance + ".log")).stream()
                    .filter(line -> line.contains("DataGrid:") || line.contains("Hazelcast Instance Bound")).toList();
            assertTrue(announced.isEmpty(), instance + " ran a data grid: " + announced);
        }
    }

    /**
     * The application's broker password (generated for this run; with it a local user could forge agent
     * replies) is in no log line, and no file that holds it can be read by another local user: the file,
     * and every directory above it up to the data directory, would have to grant others access.
     */
    private static void assertNoSecretReadableByOthers(java.nio.file.Path dataDir, String secret) throws Exception {
        List<String> leaks = new java.util.ArrayList<>();
        int files = 0;
        try (var walk = java.nio.file.Files.walk(dataDir)) {
            for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) walk::iterator) {
                if (!java.nio.file.Files.isRegularFile(file) || java.nio.file.Files.size(file) > 50_000_000) {
                    continue;
                }
                files++;
                String text = new String(java.nio.file.Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
                if (!text.contains(secret)) {
                    continue;
                }
                if (dataDir.relativize(file).startsWith("logs")) {
                    leaks.add(file + " (a log)");
                } else if (othersMayRead(dataDir, file)) {
                    leaks.add(file + " (readable by others)");
                }
            }
        }
        LOG.info("Secrets check: " + files + " files under " + dataDir);
        assertTrue(files > 10, "the walk saw the stack's files");
        assertTrue(leaks.isEmpty(), "the broker password where others can read it: " + leaks);
    }

    private static boolean othersMayRead(java.nio.file.Path dataDir, java.nio.file.Path file) throws java.io.IOException {
        if (!java.nio.file.Files.getPosixFilePermissions(file).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)) {
            return false;
        }
        for (java.nio.file.Path dir = file.getParent(); dir != null && dir.startsWith(dataDir); dir = dir.getParent()) {
            if (!java.nio.file.Files.getPosixFilePermissions(dir).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        return true;
    }

    private static boolean ready(AppServerNode server) {
        return Wait.httpOkContaining(server.baseUrl() + "/health/ready", "\"database\"");
    }

    /** A port whose next one is free too, for the two instances. */
    private static int twoFreePorts() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = TestStack.freePort();
            if (port < 65535 && isFree(port + 1)) {
                return port;
            }
        }
        throw new IllegalStateException("no two consecutive free ports");
    }

    private static boolean isFree(int port) {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static String free() {
        return Integer.toString(TestStack.freePort());
    }
}
