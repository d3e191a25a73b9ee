package io.overseer.launcher;

/**
 * The launcher's options, one row each: flag, environment variable, default, help. {@link LauncherCommand}
 * declares them to picocli, which parses them and prints --help, and {@link OptionParser} validates their
 * values: one table, so --help, the environment names and the parser can never disagree.
 */
enum Opt {
    DATA_DIR("--data-dir", "OVERSEER_DATA_DIR", "./.overseer", "DIR", "state and logs; kept across restarts"),
    STACK_DIR("--stack-dir", "OVERSEER_STACK_DIR", null, "DIR", "built stack (default: stack/ next to the launcher jar)"),
    APPLICATION("--application", "OVERSEER_APPLICATION", null, "FILE",
            "run this EAR (payara-server, wildfly) or WAR (payara-micro) instead of Overseer's own: one a team"
                    + " assembled from Overseer's artifacts with its own agents (examples/starter)"),
    APP_PROPERTIES_FILE("--app-properties", "OVERSEER_APP_PROPERTIES_FILE", null, "FILE",
            "application (MicroProfile Config) properties from a .properties file; -D/--app-property win"),
    RUNTIME("--runtime", "OVERSEER_RUNTIME", AppRuntime.PAYARA_MICRO.id(), AppRuntime.ids(),
            "application server: the WAR on Payara Micro, or the EAR on Payara Server or WildFly"),
    HTTP_PORT("--http-port", "OVERSEER_HTTP_PORT", "8080", "PORT",
            "application HTTP port (of the first instance; payara-server: admin port is this - 32)"),
    INSTANCES("--instances", "OVERSEER_INSTANCES", "1", "N",
            "application instances (1-" + AppInstance.MAX + "), HTTP ports from --http-port up (payara-micro only)"),
    BIND_ADDRESS("--bind-address", "OVERSEER_BIND_ADDRESS", "127.0.0.1", "IPV4",
            "where the instances listen, HTTP and data grid (default: loopback only; another address"
                    + " also needs --expose-demo-user)"),
    EXPOSE_DEMO_USER("--expose-demo-user", "OVERSEER_EXPOSE_DEMO_USER", null, "yes",
            "say it twice: serve beyond loopback although ./run's demo user demo/demo holds every role"),
    SIMULATOR_PORT("--simulator-port", "OVERSEER_SIMULATOR_PORT", "8090", "PORT", "remote-service simulator port"),
    BROKER_PORT("--broker-port", "OVERSEER_BROKER_PORT", "61616", "PORT",
            "broker port (local Artemis or external); with --broker-ha the backup's is this + 1"),
    BROKER_HA("--broker-ha", "OVERSEER_BROKER_HA", "false", null,
            "a replicated Artemis pair (primary and backup) instead of one broker (docs/broker-ha.md)"),
    BROKER_TLS("--broker-tls", "OVERSEER_BROKER_TLS", "false", null,
            "the local broker speaks TLS only, with a certificate made for it in the data directory (docs/tls.md)"),
    CONSOLE_PORT("--console-port", "OVERSEER_CONSOLE_PORT", "8161", "PORT",
            "Artemis web console port; with --broker-ha the backup's is this + 1"),
    DB_PORT("--db-port", "OVERSEER_DB_PORT", "55432", "PORT", "embedded PostgreSQL port"),
    DB_HA("--db-ha", "OVERSEER_DB_HA", "false", null,
            "a replicated PostgreSQL that fails over by itself (Patroni and etcd, Debian's packages) on --db-port"
                    + " and the 9 ports above (docs/database-ha.md)"),
    DB_URL("--db-url", "OVERSEER_DB_URL", null, "JDBC-URL", "external PostgreSQL (jdbc:postgresql://...): no embedded DB"),
    DB_USER("--db-user", "OVERSEER_DB_USER", null, "USER", "user for --db-url"),
    DB_PASSWORD("--db-password", "OVERSEER_DB_PASSWORD", null, "PASSWORD", "password for --db-url"),
    BROKER_HOST("--broker-host", "OVERSEER_BROKER_HOST", null, "HOST", "external Artemis broker: no local broker"),
    BROKER_USER("--broker-user", "OVERSEER_BROKER_USER", null, "USER", "user for --broker-host"),
    BROKER_PASSWORD("--broker-password", "OVERSEER_BROKER_PASSWORD", null, "PASSWORD", "password for --broker-host"),
    HOSTS("--hosts", "OVERSEER_HOSTS", "loopback", "loopback|namespaces",
            "where the stack's processes run: this machine's loopback, or (root, for fault tests) each instance, broker,"
                    + " database host and the simulator in a network namespace of its own (docs/network-faults.md)"),
    TRACING("--tracing", "OVERSEER_TRACING", "false", null,
            "trace every request: Zipkin (the viewer) and an OTLP relay on loopback, the servers' MicroProfile"
                    + " Telemetry on (docs/tracing.md); without it nothing is exported"),
    ZIPKIN_PORT("--zipkin-port", "OVERSEER_ZIPKIN_PORT", "9411", "PORT", "with --tracing: Zipkin's API and UI"),
    OTLP_PORT("--otlp-port", "OVERSEER_OTLP_PORT", "4318", "PORT",
            "with --tracing: where the relay takes the servers' OTLP/HTTP and hands it to Zipkin"),
    SERVER_JIT("--server-jit", "OVERSEER_SERVER_JIT", ServerJit.C1.id(), ServerJit.ids(),
            "the application server JVM's JIT: c1 (C1 only: far less compiling on a small machine) or tiered"
                    + " (the JVM's default, C1 then C2; BENCHMARKS.md compares them)");

    final String flag;
    final String env;
    final String defaultValue;
    final String metavar;   // null: a switch, which takes no value (--broker-ha, or --broker-ha=false)
    final String help;

    Opt(String flag, String env, String defaultValue, String metavar, String help) {
        this.flag = flag;
        this.env = env;
        this.defaultValue = defaultValue;
        this.metavar = metavar;
        this.help = help;
    }
}
