package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TCP sockets some processes (and their children: PostgreSQL's backends) listen on, as {@code ss -ltnp}
 * lists them: what an outsider on the network could reach is every one not on a loopback address.
 */
public record ListeningSockets(List<Socket> sockets) {

    private static final Pattern PID = Pattern.compile("pid=(\\d+)");

    /**
     * One listening socket: its local address ("127.0.0.1", "*", "[::]"...; an IPv4-mapped IPv6 address as
     * the IPv4 one it maps), port and owning pid.
     */
    public record Socket(String address, int port, long pid) {

        public boolean loopback() {
            return address.startsWith("127.") || address.equals("[::1]");
        }

        @Override
        public String toString() {
            return address + ":" + port + " (pid " + pid + ")";
        }
    }

    /**
     * The sockets of these processes and their descendants, each process seen at least once: a process with
     * no socket in the listing means the listing did not see it (or it is not what the caller thinks).
     */
    public static ListeningSockets of(List<Long> pids) throws IOException, InterruptedException {
        Set<Long> family = new HashSet<>(pids);
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> family.add(d.pid()))));
        Process ss = new ProcessBuilder("ss", "-H", "-ltnp").redirectErrorStream(true).start();
        List<String> lines = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, ss.waitFor(), "ss -H -ltnp: " + lines);
        List<Socket> ours = lines.stream().map(line -> parse(line, family)).filter(s -> s != null).toList();
        for (long pid : pids) {
            assertTrue(ours.stream().anyMatch(s -> s.pid() == pid), "no listening socket seen for pid " + pid + " in " + lines);
        }
        return new ListeningSockets(ours);
    }

    /** State Recv-Q Send-Q Local:Port Peer:Port Process; null when none of the family owns it. */
    private static Socket parse(String line, Set<Long> family) {
        Matcher m = PID.matcher(line);
        while (m.find()) {
            long pid = Long.parseLong(m.group(1));
            if (family.contains(pid)) {
                String local = line.trim().split("\\s+")[3];
                int colon = local.lastIndexOf(':');
                String address = local.substring(0, colon);
                int percent = address.indexOf('%'); // 127.0.0.1%lo: bound to a device as well
                address = percent < 0 ? address : address.substring(0, percent);
                if (address.startsWith("[::ffff:") && address.indexOf('.') > 0) { // a Java socket: [::ffff:127.0.0.1]
                    address = address.substring("[::ffff:".length(), address.length() - 1);
                }
                return new Socket(address, Integer.parseInt(local.substring(colon + 1)), pid);
            }
        }
        return null;
    }

    /** The sockets an outsider on the network could reach. */
    public List<Socket> beyondLoopback() {
        return sockets.stream().filter(s -> !s.loopback()).toList();
    }

    /** The sockets on exactly this address. */
    public List<Socket> on(String address) {
        return sockets.stream().filter(s -> s.address().equals(address)).toList();
    }
}
