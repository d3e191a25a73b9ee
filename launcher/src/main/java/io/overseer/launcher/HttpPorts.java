package io.overseer.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Checks, before anything starts, that every instance's HTTP port is free, and names the taken ones:
 * otherwise the stack would start PostgreSQL, the broker and the first instances, and only then fail on
 * a server that cannot bind. (A process that takes a port between this check and the server's start is
 * still caught by the server's readiness wait, less plainly.)
 */
final class HttpPorts {

    private HttpPorts() {
    }

    static void requireFree(List<AppInstance> instances, String bindAddress) {
        List<AppInstance> taken = instances.stream().filter(i -> !isFree(bindAddress, i.httpPort())).toList();
        if (taken.isEmpty()) {
            return;
        }
        String which = taken.stream().map(i -> i.httpPort() + " (" + i.name() + ")").collect(Collectors.joining(", "));
        AppInstance first = instances.get(0);
        AppInstance last = instances.get(instances.size() - 1);
        String range = instances.size() == 1 ? "" : "; the " + instances.size() + " instances use ports "
                + first.httpPort() + "-" + last.httpPort();
        throw new IllegalStateException((taken.size() == 1 ? "HTTP port " : "HTTP ports ") + which
                + (taken.size() == 1 ? " is" : " are") + " taken by another process (ss -ltnp 'sport = :"
                + taken.get(0).httpPort() + "' shows which)" + range + ": choose another --http-port");
    }

    /**
     * Binds a socket to the port without listening on it, with SO_REUSEADDR as a server has (so a
     * connection of an earlier run in TIME_WAIT does not count): on Linux the bind fails while anyone
     * listens on the port on an overlapping address. A null address is the wildcard, as Payara binds by
     * default, which overlaps every address.
     */
    static boolean isFree(String address, int port) {
        try (Socket probe = new Socket()) {
            probe.setReuseAddress(true);
            probe.bind(address == null ? new InetSocketAddress(port) : new InetSocketAddress(address, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
