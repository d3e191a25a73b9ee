package io.overseer.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Ports free before the start; afterwards, every listening socket of the stack on loopback only (ss -ltnp). */
final class PortCheck {

    private PortCheck() {
    }

    static void requireFree(List<Integer> ports) {
        List<Integer> busy = new ArrayList<>();
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                busy.add(port);
            }
        }
        if (!busy.isEmpty()) {
            throw new IllegalStateException("ports in use: " + busy + " (another ./bench? choose others with --port-base)");
        }
    }

    /** The listening sockets of {@code pids} that are not on a loopback address, as ss -ltnp prints them. */
    static List<String> nonLoopbackListeners(Set<Long> pids) throws IOException, InterruptedException {
        Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
        List<String> lines = new String(ss.getInputStream().readAllBytes()).lines().toList();
        ss.waitFor();
        List<String> bad = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || !ours(line, pids)) {
                continue;
            }
            String local = f[3];
            if (!(local.startsWith("127.") || local.startsWith("[::ffff:127.") || local.startsWith("[::1]"))) {
                bad.add(line.trim());
            }
        }
        return bad;
    }

    private static boolean ours(String line, Set<Long> pids) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("pid=(\\d+)").matcher(line);
        while (m.find()) {
            if (pids.contains(Long.parseLong(m.group(1)))) {
                return true;
            }
        }
        return false;
    }
}
