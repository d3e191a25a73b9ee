package io.overseer.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The application server ./bench measures (--runtime), as the launcher's --runtime names it: Payara Micro
 * runs the WAR, Payara Server and WildFly the EAR. Each says how to recognise its server JVM among the
 * launcher's descendants (for RSS sampling and JFR) and which ports it opens besides HTTP, so a port base
 * whose extra ports fall outside the port range is refused before anything starts.
 */
enum BenchRuntime {

    PAYARA_MICRO("payara-micro", "Payara Micro", "payara-micro.jar"),
    PAYARA_SERVER("payara-server", "Payara Server", "com.sun.enterprise.glassfish.bootstrap.ASMain"),
    WILDFLY("wildfly", "WildFly", "org.jboss.as.standalone");

    private final String id;
    private final String label;
    private final String commandLineMarker;

    BenchRuntime(String id, String label, String commandLineMarker) {
        this.id = id;
        this.label = label;
        this.commandLineMarker = commandLineMarker;
    }

    String id() {
        return id;
    }

    String label() {
        return label;
    }

    /**
     * What only the server JVM's command line contains: Micro's jar, or the main class (the launcher's
     * asadmin and jboss-cli helpers run other main classes, and are gone once the stack is ready anyway).
     */
    String commandLineMarker() {
        return commandLineMarker;
    }

    /** Payara Server and WildFly deploy the EAR; Payara Micro the WAR. */
    boolean runsEar() {
        return this != PAYARA_MICRO;
    }

    /**
     * The ports the server opens besides HTTP, placed from the HTTP port as the launcher places them
     * (PayaraServerNode.domainPorts: a domain port base of HTTP - 80; WildFlyNode.serverPorts: an offset of
     * HTTP - 8080). Payara Micro opens none (--nohazelcast: no data grid).
     */
    Map<String, Integer> extraPorts(int httpPort) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        if (this == PAYARA_SERVER) {
            int base = httpPort - 80;
            Map.of("admin", 48, "IIOP", 37, "IIOP SSL", 38, "IIOP mutual auth", 39, "Hazelcast DAS", 49,
                    "Hazelcast", 59, "OSGi shell", 66, "JMS", 76, "JMX", 86).entrySet().stream()
                    .sorted(Map.Entry.comparingByValue())
                    .forEach(e -> ports.put(e.getKey(), base + e.getValue()));
        } else if (this == WILDFLY) {
            int offset = httpPort - 8080;
            ports.put("IIOP", 3528 + offset);
            ports.put("HTTPS", 8443 + offset);
            ports.put("management", 9990 + offset);
        }
        return ports;
    }

    /** The runtime --runtime names; null when none has that id. */
    static BenchRuntime byId(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(r -> r.id.equals(wanted)).findFirst().orElse(null);
    }

    /** "payara-micro|payara-server|wildfly", for --help and error messages. */
    static String ids() {
        return Arrays.stream(values()).map(BenchRuntime::id).collect(Collectors.joining("|"));
    }
}
