package io.overseer.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Turns flags and environment variables into {@link LauncherOptions}: the values of {@link Opt}'s table,
 * each validated.
 */
final class OptionParser {

    static final String APP_PROPERTIES_ENV = "OVERSEER_APP_PROPERTIES";

    private OptionParser() {
    }

    static LauncherOptions parse(String[] args, Map<String, String> env) {
        Map<Opt, String> values = new EnumMap<>(Opt.class);
        Map<String, String> appProps = new LinkedHashMap<>();
        boolean help = false;

        // Environment first, flags override.
        for (Opt o : Opt.values()) {
            String v = env.get(o.env);
            if (v != null && !v.isBlank()) {
                values.put(o, v.trim());
            }
        }
        String envProps = env.get(APP_PROPERTIES_ENV);
        if (envProps != null) {
            for (String pair : envProps.trim().split("\\s+")) {
                if (!pair.isEmpty()) {
                    putProperty(appProps, pair, APP_PROPERTIES_ENV);
                }
            }
        }

        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                help = true;
                continue;
            }
            if (arg.startsWith("-D") && arg.length() > 2) {
                putProperty(appProps, arg.substring(2), "-D");
                continue;
            }
            if (arg.equals("-D") || arg.equals("--app-property")) {
                putProperty(appProps, valueOf(args, ++i, arg), arg);
                continue;
            }
            if (arg.startsWith("--app-property=")) {
                putProperty(appProps, arg.substring("--app-property=".length()), "--app-property");
                continue;
            }
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            Opt opt = byFlag(name);
            if (opt == null) {
                throw new UsageException("unknown option: " + arg + " (see --help)");
            }
            if (opt.metavar == null) {
                values.put(opt, inline != null ? inline : "true");
            } else {
                values.put(opt, inline != null ? inline : valueOf(args, ++i, name));
            }
        }

        return build(values, appProps, help);
    }

    private static LauncherOptions build(Map<Opt, String> v, Map<String, String> appProps, boolean help) {
        String dbUrl = v.get(Opt.DB_URL);
        if (dbUrl != null && !dbUrl.startsWith("jdbc:postgresql:")) {
            throw new UsageException("--db-url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db), got: " + dbUrl);
        }
        if (dbUrl == null && (v.containsKey(Opt.DB_USER) || v.containsKey(Opt.DB_PASSWORD))) {
            throw new UsageException("--db-user/--db-password only apply with --db-url");
        }
        if (dbUrl != null && !v.containsKey(Opt.DB_USER)) {
            throw new UsageException("--db-url needs --db-user (and usually --db-password)");
        }
        String brokerHost = v.get(Opt.BROKER_HOST);
        if (brokerHost == null && (v.containsKey(Opt.BROKER_USER) || v.containsKey(Opt.BROKER_PASSWORD))) {
            throw new UsageException("--broker-user/--broker-password only apply with --broker-host");
        }
        if (brokerHost != null && (!v.containsKey(Opt.BROKER_USER) || !v.containsKey(Opt.BROKER_PASSWORD))) {
            throw new UsageException("--broker-host needs --broker-user and --broker-password");
        }
        boolean dbHa = switchValue(v, Opt.DB_HA);
        if (dbHa && dbUrl != null) {
            throw new UsageException("--db-ha starts a local replicated PostgreSQL and cannot be combined with --db-url;"
                    + " to point Overseer at your own HA PostgreSQL see docs/database-ha.md");
        }
        boolean brokerHa = switchValue(v, Opt.BROKER_HA);
        if (brokerHa && brokerHost != null) {
            // A cluster of the user's own is wired by hand (adapter properties, docs/broker-ha.md), not guessed.
            throw new UsageException("--broker-ha starts a local replicated pair and cannot be combined with"
                    + " --broker-host; to use your own broker cluster see docs/broker-ha.md");
        }
        boolean brokerTls = switchValue(v, Opt.BROKER_TLS);
        if (brokerTls && (brokerHost != null || brokerHa)) {
            throw new UsageException("--broker-tls gives the one local broker a TLS acceptor; your own broker or"
                    + " --broker-ha is set up for TLS by hand (docs/tls.md)");
        }
        String stack = value(v, Opt.STACK_DIR);
        AppRuntime runtime = runtime(v);
        int instances = instances(v);
        if (dbHa) {
            checkDbHaPorts(v, instances);
        }
        if (instances > 1 && runtime != AppRuntime.PAYARA_MICRO) {
            // Each domain would need a port block of its own and its own admin port: not built (docs/operations.md).
            throw new UsageException(Opt.INSTANCES.flag + " " + instances + " needs --runtime payara-micro; "
                    + runtime.id() + " runs one instance");
        }
        String bindAddress = bindAddress(v);
        requireDeliberateExposure(bindAddress, v.get(Opt.EXPOSE_DEMO_USER));
        if (brokerHa) {
            checkBackupPorts(v);
        }
        checkHttpPorts(v, instances, brokerHost == null, dbUrl == null, brokerHa);
        if (runtime != AppRuntime.PAYARA_MICRO) {
            checkServerPorts(runtime, v, brokerHost == null, dbUrl == null, brokerHa);
        }
        if (runtime == AppRuntime.WILDFLY && brokerTls) {
            throw new UsageException("--broker-tls is not wired for --runtime wildfly (its connector needs the trust"
                    + " store in configure.cli; docs/tls.md shows how): use --runtime payara-micro or payara-server");
        }
        if (runtime == AppRuntime.WILDFLY && brokerHa) {
            throw new UsageException("--broker-ha is not wired for --runtime wildfly yet (server-config/wildfly/"
                    + "broker-pair.cli is untried): use --runtime payara-micro or payara-server");
        }
        boolean tracing = switchValue(v, Opt.TRACING);
        if (tracing) {
            checkTracingPorts(v, runtime, instances);
        }
        return new LauncherOptions(
                Path.of(value(v, Opt.DATA_DIR)).toAbsolutePath().normalize(),
                stack == null ? null : Path.of(stack).toAbsolutePath().normalize(), application(v, runtime),
                runtime, port(v, Opt.HTTP_PORT), instances, bindAddress, port(v, Opt.SIMULATOR_PORT),
                port(v, Opt.BROKER_PORT), port(v, Opt.CONSOLE_PORT), port(v, Opt.DB_PORT),
                dbUrl, v.get(Opt.DB_USER), v.getOrDefault(Opt.DB_PASSWORD, ""), dbHa,
                brokerHost, v.get(Opt.BROKER_USER), v.get(Opt.BROKER_PASSWORD), brokerHa, brokerTls,
                withFile(v, appProps), ServerJit.of(value(v, Opt.SERVER_JIT)), ownHosts(v, runtime, dbHa, brokerHost, brokerTls),
                tracing, port(v, Opt.ZIPKIN_PORT), port(v, Opt.OTLP_PORT), help);
    }

    /**
     * --hosts namespaces places every process the launcher starts on a host of its own: Payara Micro's
     * instances (the other runtimes' ports and admin listeners assume loopback), the local broker without TLS
     * (its certificate names localhost), and the replicated database (the embedded one is started by a
     * library that cannot be placed).
     */
    private static boolean ownHosts(Map<Opt, String> v, AppRuntime runtime, boolean dbHa, String brokerHost,
                                    boolean brokerTls) {
        String s = value(v, Opt.HOSTS);
        switch (s) {
            case "loopback" -> {
                return false;
            }
            case "namespaces" -> {
                if (runtime != AppRuntime.PAYARA_MICRO || !dbHa || brokerHost != null || brokerTls) {
                    throw new UsageException(Opt.HOSTS.flag + " namespaces needs --runtime payara-micro, --db-ha, the"
                            + " local broker and no --broker-tls");
                }
                return true;
            }
            default -> throw new UsageException(Opt.HOSTS.flag + " (" + Opt.HOSTS.env + ") is loopback or namespaces, got: " + s);
        }
    }

    /**
     * The deployable --application names, which must exist and suit the runtime: an EAR for the servers, a WAR
     * for Payara Micro (which cannot deploy an EAR). Null: Overseer's own, from the stack.
     */
    private static Path application(Map<Opt, String> v, AppRuntime runtime) {
        String file = v.get(Opt.APPLICATION);
        if (file == null) {
            return null;
        }
        Path path = Path.of(file).toAbsolutePath().normalize();
        String wanted = runtime == AppRuntime.PAYARA_MICRO ? ".war" : ".ear";
        if (!path.getFileName().toString().endsWith(wanted)) {
            throw new UsageException(Opt.APPLICATION.flag + " for --runtime " + runtime.id() + " is a " + wanted
                    + " file, got: " + file);
        }
        if (!Files.isRegularFile(path)) {
            throw new UsageException(Opt.APPLICATION.flag + ": no such file: " + path);
        }
        return path;
    }

    /** --app-properties' file, under the -D and --app-property values (which win). */
    private static Map<String, String> withFile(Map<Opt, String> v, Map<String, String> appProps) {
        String file = v.get(Opt.APP_PROPERTIES_FILE);
        if (file == null) {
            return appProps;
        }
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UsageException(Opt.APP_PROPERTIES_FILE.flag + ": cannot read " + file + ": " + e.getMessage());
        }
        Map<String, String> merged = new LinkedHashMap<>();
        properties.stringPropertyNames().stream().sorted().forEach(k -> merged.put(k, properties.getProperty(k)));
        merged.putAll(appProps);
        return merged;
    }

    /** The runtime --runtime names; an unknown one is a usage error (exit code 2). */
    private static AppRuntime runtime(Map<Opt, String> v) {
        String s = value(v, Opt.RUNTIME);
        AppRuntime runtime = AppRuntime.byId(s);
        if (runtime == null) {
            throw new UsageException(Opt.RUNTIME.flag + " (" + Opt.RUNTIME.env + ") is one of " + AppRuntime.ids()
                    + ", got: " + s);
        }
        return runtime;
    }

    /**
     * Payara Server's domain (base = HTTP - 80, see PayaraServerNode) and WildFly (offset = HTTP - 8080, see
     * WildFlyNode) take ports around the HTTP port: they must exist and be none of the stack's other ports.
     */
    private static void checkServerPorts(AppRuntime runtime, Map<Opt, String> v, boolean localBroker, boolean embeddedDb,
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
    private static void checkTracingPorts(Map<Opt, String> v, AppRuntime runtime, int instances) {
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

    private static int instances(Map<Opt, String> v) {
        String s = value(v, Opt.INSTANCES);
        try {
            int n = Integer.parseInt(s);
            if (n >= 1 && n <= AppInstance.MAX) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(Opt.INSTANCES.flag + " (" + Opt.INSTANCES.env + ") must be a whole number from 1 to "
                + AppInstance.MAX + ", got: " + s);
    }

    /**
     * The instances take --http-port and the ports above it: each must exist and be none of the stack's
     * other ports, or two servers would fight over one (which of them loses depends on start order).
     */
    private static void checkHttpPorts(Map<Opt, String> v, int instances, boolean localBroker, boolean embeddedDb,
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
    private static void checkBackupPorts(Map<Opt, String> v) {
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
     * The replicated database takes --db-port and the ports above it ({@link PostgresHa}): they must exist
     * and hold none of the stack's other ports.
     */
    private static void checkDbHaPorts(Map<Opt, String> v, int instances) {
        int first = port(v, Opt.DB_PORT);
        int last = first + PostgresHa.PORTS - 1;
        if (last > 65535) {
            throw new UsageException("--db-ha takes " + Opt.DB_PORT.flag + " and the " + (PostgresHa.PORTS - 1)
                    + " ports above it: choose a " + Opt.DB_PORT.flag + " up to " + (65535 - PostgresHa.PORTS + 1));
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

    /** true/false, yes/no, 1/0 (an environment variable set to any of them), case-insensitive. */
    private static boolean switchValue(Map<Opt, String> v, Opt o) {
        String s = value(v, o).toLowerCase(java.util.Locale.ROOT);
        switch (s) {
            case "true", "yes", "1" -> {
                return true;
            }
            case "false", "no", "0" -> {
                return false;
            }
            default -> throw new UsageException(o.flag + " (" + o.env + ") is true or false, got: " + value(v, o));
        }
    }

    /**
     * The stack ./run starts always has the demo user demo/demo, who holds every role (operator included):
     * serving it beyond this machine must be asked for twice, with the address and with
     * --expose-demo-user yes, or anyone who can reach the machine could cancel and resubmit orders.
     */
    static void requireDeliberateExposure(String bindAddress, String exposeDemoUser) {
        boolean loopback = bindAddress != null && bindAddress.startsWith("127.");
        if (loopback) {
            return;
        }
        if (!"yes".equals(exposeDemoUser)) {
            throw new UsageException(Opt.BIND_ADDRESS.flag + " " + (bindAddress == null ? "0.0.0.0" : bindAddress)
                    + " would serve the API beyond this machine, where anyone could sign in as the demo user"
                    + " demo/demo, who holds every role: add " + Opt.EXPOSE_DEMO_USER.flag + " yes ("
                    + Opt.EXPOSE_DEMO_USER.env + "=yes) if that is what you want");
        }
    }

    /** An IPv4 literal (a name would need a lookup, and Payara's data grid takes addresses only); 0.0.0.0 means every interface. */
    private static String bindAddress(Map<Opt, String> v) {
        String s = value(v, Opt.BIND_ADDRESS);
        if (s.equals("0.0.0.0")) {
            return null;
        }
        String[] parts = s.split("\\.", -1);
        boolean ok = parts.length == 4;
        for (int i = 0; ok && i < 4; i++) {
            ok = parts[i].matches("\\d{1,3}") && Integer.parseInt(parts[i]) <= 255;
        }
        if (!ok) {
            throw new UsageException(Opt.BIND_ADDRESS.flag + " (" + Opt.BIND_ADDRESS.env
                    + ") must be an IPv4 address such as 127.0.0.1, got: " + s);
        }
        return s;
    }

    private static String value(Map<Opt, String> v, Opt o) {
        return v.getOrDefault(o, o.defaultValue);
    }

    private static int port(Map<Opt, String> v, Opt o) {
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

    private static Opt byFlag(String flag) {
        for (Opt o : Opt.values()) {
            if (o.flag.equals(flag)) {
                return o;
            }
        }
        return null;
    }

    private static String valueOf(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new UsageException(flag + " needs a value");
        }
        return args[i];
    }

    private static void putProperty(Map<String, String> props, String pair, String source) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            throw new UsageException(source + " expects key=value, got: " + pair);
        }
        props.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
}
