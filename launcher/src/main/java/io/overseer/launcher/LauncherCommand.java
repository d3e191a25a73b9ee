package io.overseer.launcher;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The launcher's command line on picocli: {@link Opt}'s table declared as options, each value taken from
 * its flag, else from its environment variable (a flag wins), and --help rendered from the same table.
 * Values stay text here; {@link OptionParser} checks them, so a bad environment variable and a bad flag
 * get the same message.
 */
final class LauncherCommand {

    /** Width of --help; launcher/usage.txt holds the text at this width for ./run to print without a build. */
    static final int WIDTH = 110;

    private static final String APP_PROPERTY = "--app-property";

    /** What the command line and the environment said, before validation. */
    record Parsed(Map<Opt, String> values, List<String> appProperties, boolean help) {
    }

    private LauncherCommand() {
    }

    static Parsed parse(String[] args, Map<String, String> env) {
        Map<Opt, String> values = new EnumMap<>(Opt.class);
        for (Opt o : Opt.values()) {
            String v = env.get(o.env);
            if (v != null && !v.isBlank()) {
                values.put(o, v.trim());
            }
        }
        CommandLine commandLine = commandLine();
        ParseResult result;
        try {
            result = commandLine.parseArgs(args);
        } catch (CommandLine.MissingParameterException e) {
            throw new UsageException(e.getMissing().get(0) instanceof OptionSpec o
                    ? o.longestName() + " needs a value" : e.getMessage());
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        for (Opt o : Opt.values()) {
            if (result.hasMatchedOption(o.flag)) {
                values.put(o, result.matchedOptionValue(o.flag, ""));
            }
        }
        return new Parsed(values, result.matchedOptionValue(APP_PROPERTY, List.<String>of()),
                commandLine.isUsageHelpRequested());
    }

    /** --help: every option with its environment variable and default, then how they combine. */
    static String usage() {
        return commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static CommandLine commandLine() {
        CommandSpec spec = CommandSpec.create().name("./run");
        spec.parser().overwrittenOptionsAllowed(true).expandAtFiles(false);
        spec.usageMessage().width(WIDTH).longOptionsMaxWidth(34).autoWidth(false).sortOptions(false)
                .customSynopsis("./run [--rebuild] [options]     (or: java -jar launcher/target/overseer-launcher.jar [options])")
                .description(DESCRIPTION)
                .optionListHeading("Options (each also read from the environment variable shown; a flag wins):%n")
                .footer(FOOTER);
        for (Opt o : Opt.values()) {
            String env = "  env " + o.env + (o.defaultValue == null ? "" : ", default " + o.defaultValue);
            OptionSpec.Builder option = OptionSpec.builder(o.flag).type(String.class).description(o.help, env);
            if (o.metavar == null) { // a switch: --broker-ha, or --broker-ha=false
                option.arity("0..1").fallbackValue("true").paramLabel("true|false");
            } else {
                option.arity("1").paramLabel(o.metavar);
            }
            spec.addOption(option.build());
        }
        spec.addOption(OptionSpec.builder("-D", APP_PROPERTY).type(List.class).auxiliaryTypes(String.class)
                .paramLabel("KEY=VALUE").description("extra application (MicroProfile Config) property, repeatable",
                        "  env " + OptionParser.APP_PROPERTIES_ENV + "=\"k1=v1 k2=v2\"").build());
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("this text").build());
        return new CommandLine(spec);
    }

    private static final String[] DESCRIPTION = {
        "",
        "Starts PostgreSQL, Artemis, the remote-service simulator and the application server: Payara Micro",
        "with the Overseer WAR, or with --runtime payara-server a Payara Server domain with the EAR;",
        "restarts the application server if it dies, and stops everything on Ctrl-C or SIGTERM.",
        "",
    };

    private static final String[] FOOTER = {
        "",
        "With --db-url no embedded PostgreSQL is started; with --broker-host no local Artemis.",
        "With --db-ha two PostgreSQL 15 hosts under Patroni replicate synchronously, their leader lock in three etcd",
        "members; the application names both hosts and reaches the primary. Needs Debian's patroni, etcd-server and",
        "postgresql-15 (./run installs them as root); as root the nodes run as the postgres user (docs/database-ha.md).",
        "With --broker-ha a primary and a backup broker replicate each other; the application and the",
        "summary's legacy-client URL name both, and a dead node is restarted in a safe order (docs/broker-ha.md).",
        "--runtime payara-server creates a fresh domain under the data directory at every start (the first",
        "start also makes a template domain, ~20 s); all its listeners are on loopback, HTTPS is off.",
        "--runtime wildfly deploys the EAR on WildFly 39 (standalone-full), configured by server-config/wildfly's",
        "scripts (the first start installs modules and configures a template, ~15 s); health is on its management",
        "port (--http-port + 1910). --instances N > 1 needs payara-micro.",
        "With --instances N each instance has its own HTTP port, work directory and log (payara, payara-2, ...)",
        "and is restarted by itself if it dies; -D overseer.instance-id=X names them X, X-2, ... (docs/instances.md).",
        "Local demo user demo/demo holds every role; created by ./run only, never a default elsewhere.",
    };
}
