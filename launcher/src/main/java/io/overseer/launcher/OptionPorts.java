package io.overseer.launcher;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stack's ports, checked against each other before anything starts: every port a component will take
 * must exist and belong to it alone, or a server would fail to bind late in the start (after a minute of
 * booting) or two would fight over one.
 */
final class OptionPorts {

    private OptionPorts() {
    }
    /**
     * Payara Server's domain (base = HTTP - 80, see PayaraServerNode) and WildFly (offset = HTTP - 8080, see
     * WildFlyNode) take ports around the HTTP port: they must exist and be none of the stack's other ports.
     */
    static void checkServerPorts(AppRuntime runtime, Map<Opt, String> v, boolean localBroker, boolean embeddedDb,
                                         boolean brokerHa) {
        int http = port(v, Opt.HTTP_PORT);
        Map<String, Integer> serverPorts;
        if (runtime == AppRuntime.PAYARA_SERVER) {
            int base = PayaraServerNode.portBase(http);
            if (base < 1024 || base + 100 > 65535) {
                throw new UsageException("--runtime payara-server places its domain's ports from --http-port - 80 to"
                        + " --http-port + 6: choose an --http-port from 1104 to 65435, got " + http);
            }
            serverPorts = PayaraServerNode.domainPorts(http);
        } else {
            serverPorts = WildFlyNode.serverPorts(http);
            if (serverPorts.values().stream().anyMatch(p -> p < 1024 || p > 65535)) {
                throw new UsageException("--runtime wildfly moves its ports by --http-port - 8080 (IIOP to --http-port - 4552,"
                        + " management to --http-port + 1910): choose an --http-port from 5576 to 63625, got " + http);
            }
        }
        Map<String, Integer> others = new LinkedHashMap<>();
        others.put(Opt.SIMULATOR_PORT.flag, port(v, Opt.SIMULATOR_PORT));
        if (localBroker) {
            others.put(Opt.BROKER_PORT.flag, port(v, Opt.BROKER_PORT));
            others.put(Opt.CONSOLE_PORT.flag, port(v, Opt.CONSOLE_PORT));
            if (brokerHa) {
                others.put(Opt.BROKER_PORT.flag + " + 1 (backup)", port(v, Opt.BROKER_PORT) + 1);
                others.put(Opt.CONSOLE_PORT.flag + " + 1 (backup console)", port(v, Opt.CONSOLE_PORT) + 1);
            }
        }
        if (embeddedDb) {
            others.put(Opt.DB_PORT.flag, port(v, Opt.DB_PORT));
        }
        serverPorts.forEach((what, p) -> others.forEach((flag, o) -> {
            if (o.intValue() == p) {
                throw new UsageException("--runtime " + runtime.id() + " with --http-port " + http + " puts its " + what
                        + " port on " + p + ", which is " + flag + ": move one of them");
            }
        }));
    }

    /**
     * Zipkin and the relay take one port each: none of the stack's others, or one of them would fail to bind
     * late in the start (a server's only after a minute of booting).
     */
    static void checkTracingPorts(Map<Opt, String> v, AppRuntime runtime, int instances) {
        Map<String, Integer> taken = new LinkedHashMap<>();
        for (Opt o : List.of(Opt.SIMULATOR_PORT, Opt.BROKER_PORT, Opt.CONSOLE_PORT, Opt.DB_PORT)) {
            taken.put(o.flag, port(v, o));
        }
        for (int i = 0; i < instances; i++) {
            taken.put(i == 0 ? Opt.HTTP_PORT.flag : "instance " + (i + 1) + "'s HTTP port", port(v, Opt.HTTP_PORT) + i);
        }
        if (runtime == AppRuntime.PAYARA_SERVER) {
            PayaraServerNode.domainPorts(port(v, Opt.HTTP_PORT)).forEach((what, p) -> taken.put("Payara's " + what, p));
        } else if (runtime == AppRuntime.WILDFLY) {
            WildFlyNode.serverPorts(port(v, Opt.HTTP_PORT)).forEach((what, p) -> taken.put("WildFly's " + what, p));
        }
        int zipkin = port(v, Opt.ZIPKIN_PORT);
        int otlp = port(v, Opt.OTLP_PORT);
        if (zipkin == otlp) {
            throw new UsageException(Opt.ZIPKIN_PORT.flag + " and " + Opt.OTLP_PORT.flag + " are both " + zipkin
                    + ": move one of them");
        }
        for (Opt o : List.of(Opt.ZIPKIN_PORT, Opt.OTLP_PORT)) {
            int p = port(v, o);
            taken.forEach((what, q) -> {
                if (q == p) {
                    throw new UsageException(o.flag + " " + p + " is also " + what + ": move one of them");
                }
            });
        }
    }

    /**
     * The instances take --http-port and the ports above it: each must exist and be none of the stack's
     * other ports, or two servers would fight over one (which of them loses depends on start order).
     */
    static void checkHttpPorts(Map<Opt, String> v, int instances, boolean localBroker, boolean embeddedDb,
                                       boolean brokerHa) {
        int first = port(v, Opt.HTTP_PORT);
        int last = first + instances - 1;
        String range = instances == 1 ? Opt.HTTP_PORT.flag + " " + first
                : Opt.HTTP_PORT.flag + " " + first + " with " + Opt.INSTANCES.flag + " " + instances
                        + " (HTTP ports " + first + "-" + last + ")";
        if (last > 65535) {
            throw new UsageException(range + " runs past port 65535: choose a lower " + Opt.HTTP_PORT.flag);
        }
        Map<Opt, Integer> others = new LinkedHashMap<>();
        others.put(Opt.SIMULATOR_PORT, port(v, Opt.SIMULATOR_PORT));
        if (localBroker) {
            others.put(Opt.BROKER_PORT, port(v, Opt.BROKER_PORT));
            others.put(Opt.CONSOLE_PORT, port(v, Opt.CONSOLE_PORT));
        }
        Map<String, Integer> backup = new LinkedHashMap<>();
        if (brokerHa) {
            backup.put("the backup broker's port (" + Opt.BROKER_PORT.flag + " + 1)", port(v, Opt.BROKER_PORT) + 1);
            backup.put("the backup's console (" + Opt.CONSOLE_PORT.flag + " + 1)", port(v, Opt.CONSOLE_PORT) + 1);
        }
        backup.forEach((what, p) -> {
            if (p >= first && p <= last) {
                throw new UsageException(range + " collides with " + what + " " + p + ": move one of them");
            }
        });
        if (embeddedDb) {
            others.put(Opt.DB_PORT, port(v, Opt.DB_PORT));
        }
        others.forEach((o, p) -> {
            if (p >= first && p <= last) {
                throw new UsageException(range + " collides with " + o.flag + " " + p + ": move one of them");
            }
        });
    }

    /**
     * The backup node takes the port above the broker's and above the console's: both must exist and differ
     * from the other local ports, or the second node would fail to bind (late, and only in HA mode).
     */
    static void checkBackupPorts(Map<Opt, String> v) {
        int broker = port(v, Opt.BROKER_PORT);
        int console = port(v, Opt.CONSOLE_PORT);
        if (broker == 65535 || console == 65535) {
            throw new UsageException("--broker-ha needs the ports above " + Opt.BROKER_PORT.flag + " and "
                    + Opt.CONSOLE_PORT.flag + " for the backup: choose lower ones");
        }
        Map<String, Integer> taken = new LinkedHashMap<>();
        taken.put(Opt.BROKER_PORT.flag, broker);
        taken.put(Opt.BROKER_PORT.flag + " + 1 (backup)", broker + 1);
        taken.put(Opt.CONSOLE_PORT.flag, console);
        taken.put(Opt.CONSOLE_PORT.flag + " + 1 (backup console)", console + 1);
        taken.put(Opt.SIMULATOR_PORT.flag, port(v, Opt.SIMULATOR_PORT));
        Map<Integer, String> seen = new java.util.HashMap<>();
        taken.forEach((what, p) -> {
            String other = seen.putIfAbsent(p, what);
            if (other != null) {
                throw new UsageException("with --broker-ha, " + other + " and " + what + " are both port " + p
                        + ": move one of them");
            }
        });
    }

    /**
     * The replicated database takes --db-port and the ports above it ({@link ReplicatedDatabase}): they must exist
     * and hold none of the stack's other ports.
     */
    static void checkDbHaPorts(Map<Opt, String> v, int instances) {
        int first = port(v, Opt.DB_PORT);
        int last = first + ReplicatedDatabase.PORTS - 1;
        if (last > 65535) {
            throw new UsageException("--db-ha takes " + Opt.DB_PORT.flag + " and the " + (ReplicatedDatabase.PORTS - 1)
                    + " ports above it: choose a " + Opt.DB_PORT.flag + " up to " + (65535 - ReplicatedDatabase.PORTS + 1));
        }
        Map<String, Integer> others = new LinkedHashMap<>();
        for (Opt o : List.of(Opt.SIMULATOR_PORT, Opt.BROKER_PORT, Opt.CONSOLE_PORT)) {
            others.put(o.flag, port(v, o));
        }
        others.put(Opt.BROKER_PORT.flag + " + 1 (backup)", port(v, Opt.BROKER_PORT) + 1);
        others.put(Opt.CONSOLE_PORT.flag + " + 1 (backup console)", port(v, Opt.CONSOLE_PORT) + 1);
        for (int i = 0; i < instances; i++) {
            others.put(i == 0 ? Opt.HTTP_PORT.flag : "instance " + (i + 1) + "'s HTTP port", port(v, Opt.HTTP_PORT) + i);
        }
        others.forEach((what, p) -> {
            if (p >= first && p <= last) {
                throw new UsageException("--db-ha takes ports " + first + "-" + last + " (" + Opt.DB_PORT.flag
                        + " and the ones above), which hold " + what + " " + p + ": move one of them");
            }
        });
    }

    static String value(Map<Opt, String> v, Opt o) {
        return v.getOrDefault(o, o.defaultValue);
    }

    static int port(Map<Opt, String> v, Opt o) {
        String s = value(v, o);
        try {
            int p = Integer.parseInt(s);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(o.flag + " (" + o.env + ") must be a port number 1-65535, got: " + s);
    }
}
