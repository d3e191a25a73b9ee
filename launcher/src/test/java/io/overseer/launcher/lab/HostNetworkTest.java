package io.overseer.launcher.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.security.auth.module.UnixSystem;
import io.overseer.launcher.Host;
import io.overseer.launcher.Wait;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Hosts of their own, for real: two network namespaces on a bridge, a server in one, reached from this
 * machine's namespace and from the other host; then the link between the two cut and healed, and one host
 * isolated and rejoined; finally nothing of the network is left. Needs root (CI runs as root); elsewhere
 * the test is skipped, saying so.
 */
class HostNetworkTest {

    private static final int PORT = 18999;

    @Test
    void hostsReachEachOtherUntilCutOrIsolatedAndNothingIsLeftBehind() throws Exception {
        assumeTrue(new UnixSystem().getUid() == 0, "network namespaces need root");
        HostNetwork network = HostNetwork.plan(List.of("a", "b"));
        Host a = network.host("a");
        Host b = network.host("b");
        Process server = null;
        try {
            network.open();
            List<String> serve = new ArrayList<>(b.commandPrefix());
            serve.addAll(List.of("python3", "-m", "http.server", Integer.toString(PORT), "--bind", b.address()));
            server = new ProcessBuilder(serve).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String url = "http://" + b.address() + ":" + PORT + "/";
            Process s = server;
            Wait.until("the server on host b", java.time.Duration.ofSeconds(20), () -> Wait.httpStatus(url) == 200,
                    s::isAlive, () -> "");
            assertTrue(connects(a, b), "host a reaches host b");

            network.cut(a, b);
            assertFalse(connects(a, b), "cut: host a no longer reaches host b");
            assertEquals(200, Wait.httpStatus(url), "cut: this machine still reaches host b");
            network.heal(a, b);
            assertTrue(connects(a, b), "healed: host a reaches host b again");

            network.isolate(b);
            assertFalse(connects(a, b), "isolated: host a no longer reaches host b");
            network.rejoin(b);
            Wait.until("host b after rejoining", java.time.Duration.ofSeconds(10), () -> Wait.httpStatus(url) == 200,
                    () -> true, () -> "");
        } finally {
            if (server != null) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            network.close();
        }
        String namespaces = run(List.of(HostNetwork.IP, "netns", "list"));
        assertFalse(namespaces.contains(a.namespace()) || namespaces.contains(b.namespace()), namespaces);
        assertFalse(run(List.of(HostNetwork.IP, "link", "show")).contains(HostNetwork.PREFIX + network.id()),
                "the bridge and the links are gone");
    }

    /** Whether a TCP connection from {@code from} to the server on {@code to} opens within 2 s. */
    private static boolean connects(Host from, Host to) throws Exception {
        List<String> cmd = new ArrayList<>(from.commandPrefix());
        cmd.addAll(List.of("timeout", "2", "bash", "-c", "exec 3<>/dev/tcp/" + to.address() + "/" + PORT));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }
}
