package io.overseer.launcher;

import static io.overseer.launcher.OptionPorts.port;
import static io.overseer.launcher.OptionPorts.value;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Turns the values {@link LauncherCommand} read (flags over environment variables over {@link Opt}'s
 * defaults) into {@link LauncherOptions}, each validated: what picocli cannot know, such as which
 * combinations the stack can start.
 */
final class OptionParser {

    static final String APP_PROPERTIES_ENV = "OVERSEER_APP_PROPERTIES";

    private OptionParser() {
    }

    static LauncherOptions parse(String[] args, Map<String, String> env) {
        LauncherCommand.Parsed parsed = LauncherCommand.parse(args, env);
        Map<String, String> appProps = new LinkedHashMap<>();
        String envProps = env.get(APP_PROPERTIES_ENV);
        if (envProps != null) {
            for (String pair : envProps.trim().split("\\s+")) {
                if (!pair.isEmpty()) {
                    putProperty(appProps, pair, APP_PROPERTIES_ENV);
                }
            }
        }
        for (String pair : parsed.appProperties()) {
            putProperty(appProps, pair, "-D");
        }
        return build(parsed.values(), appProps, parsed.help());
    }

    private static LauncherOptions build(Map<Opt, String> v, Map<String, String> appProps, boolean help) {
        checkExternals(v);
        String dbUrl = v.get(Opt.DB_URL);
        String brokerHost = v.get(Opt.BROKER_HOST);
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
            OptionPorts.checkDbHaPorts(v, instances);
        }
        if (instances > 1 && runtime != AppRuntime.PAYARA_MICRO) {
            // Each domain would need a port block of its own and its own admin port: not built (docs/operations.md).
            throw new UsageException(Opt.INSTANCES.flag + " " + instances + " needs --runtime payara-micro; "
                    + runtime.id() + " runs one instance");
        }
        String bindAddress = bindAddress(v);
        requireDeliberateExposure(bindAddress, v.get(Opt.EXPOSE_DEMO_USER));
        if (brokerHa) {
            OptionPorts.checkBackupPorts(v);
        }
        OptionPorts.checkHttpPorts(v, instances, brokerHost == null, dbUrl == null, brokerHa);
        if (runtime != AppRuntime.PAYARA_MICRO) {
            OptionPorts.checkServerPorts(runtime, v, brokerHost == null, dbUrl == null, brokerHa);
        }
        if (runtime == AppRuntime.WILDFLY) {
            refuseOnWildFly(brokerTls, brokerHa);
        }
        boolean tracing = switchValue(v, Opt.TRACING);
        if (tracing) {
            OptionPorts.checkTracingPorts(v, runtime, instances);
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

    /** What WildFly's configuration does not wire yet. */
    private static void refuseOnWildFly(boolean brokerTls, boolean brokerHa) {
        if (brokerTls) {
            throw new UsageException("--broker-tls is not wired for --runtime wildfly (its connector needs the trust"
                    + " store in configure.cli; docs/tls.md shows how): use --runtime payara-micro or payara-server");
        }
        if (brokerHa) {
            throw new UsageException("--broker-ha is not wired for --runtime wildfly yet (server-config/wildfly/"
                    + "broker-pair.cli is untried): use --runtime payara-micro or payara-server");
        }
    }

    /** An external database or broker comes with its credentials, and credentials only with one. */
    private static void checkExternals(Map<Opt, String> v) {
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

    private static void putProperty(Map<String, String> props, String pair, String source) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            throw new UsageException(source + " expects key=value, got: " + pair);
        }
        props.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
}
