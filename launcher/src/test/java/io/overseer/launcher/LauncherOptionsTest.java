package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LauncherOptionsTest {

    private static LauncherOptions parse(Map<String, String> env, String... args) {
        return LauncherOptions.parse(args, env);
    }

    @Test
    void defaultsStartEverythingLocally() {
        LauncherOptions o = parse(Map.of());
        assertEquals(Path.of(".overseer").toAbsolutePath().normalize(), o.dataDir());
        assertNull(o.stackDir());
        assertEquals(8080, o.httpPort());
        assertEquals(8090, o.simulatorPort());
        assertEquals(61616, o.brokerPort());
        assertEquals(8161, o.consolePort());
        assertEquals(55432, o.dbPort());
        assertTrue(o.embeddedDb());
        assertTrue(o.localBroker());
        assertEquals("jdbc:postgresql://127.0.0.1:55432/overseer", o.effectiveDbUrl());
        assertEquals("overseer", o.effectiveDbUser());
        assertEquals("127.0.0.1", o.effectiveBrokerHost());
        assertEquals(1, o.instances());
        assertEquals("127.0.0.1", o.bindAddress(), "loopback unless asked");
        assertFalse(o.help());
    }

    @Test
    void instancesFromTheFlagOrTheEnvironment() {
        assertEquals(3, parse(Map.of(), "--instances", "3").instances());
        assertEquals(4, parse(Map.of("OVERSEER_INSTANCES", "4")).instances());
        assertEquals(2, parse(Map.of("OVERSEER_INSTANCES", "4"), "--instances=2").instances());
        assertEquals(AppInstance.MAX, parse(Map.of(), "--instances", Integer.toString(AppInstance.MAX),
                "--simulator-port", "9090").instances());
    }

    @Test
    void instancesOutsideOneToSixteenAreAUsageErrorThatSaysSo() {
        for (String bad : new String[] {"0", "17", "-1", "two", "2.5", ""}) {
            UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--instances", bad), bad);
            assertEquals("--instances (OVERSEER_INSTANCES) must be a whole number from 1 to 16, got: " + bad,
                    e.getMessage());
        }
        assertThrows(UsageException.class, () -> parse(Map.of("OVERSEER_INSTANCES", "99")));
    }

    @Test
    void theInstancesPortsMustFitAndLeaveTheOtherPortsAlone() {
        UsageException pastTheEnd = assertThrows(UsageException.class,
                () -> parse(Map.of(), "--http-port", "65534", "--instances", "3"));
        assertTrue(pastTheEnd.getMessage().contains("65534-65536"), pastTheEnd.getMessage());
        // 8080 + 10 is the simulator's default port.
        UsageException simulator = assertThrows(UsageException.class, () -> parse(Map.of(), "--instances", "11"));
        assertEquals("--http-port 8080 with --instances 11 (HTTP ports 8080-8090) collides with --simulator-port 8090:"
                + " move one of them", simulator.getMessage());
        assertEquals(10, parse(Map.of(), "--instances", "10").instances());
        assertEquals(11, parse(Map.of(), "--instances", "11", "--simulator-port", "9090").instances());
        UsageException db = assertThrows(UsageException.class, () -> parse(Map.of(), "--http-port", "55430",
                "--instances", "3"));
        assertTrue(db.getMessage().contains("--db-port 55432"), db.getMessage());
        // The ports of servers the launcher does not start are not its business.
        assertEquals(3, parse(Map.of(), "--http-port", "55430", "--instances", "3",
                "--db-url", "jdbc:postgresql://db/x", "--db-user", "u").instances());
        UsageException single = assertThrows(UsageException.class, () -> parse(Map.of(), "--http-port", "8161"));
        assertEquals("--http-port 8161 collides with --console-port 8161: move one of them", single.getMessage());
    }

    @Test
    void bindAddress() {
        assertEquals("127.0.0.1", parse(Map.of(), "--bind-address", "127.0.0.1").bindAddress());
        assertEquals("127.0.0.1", parse(Map.of()).bindAddress(), "loopback without the flag");
        assertEquals("10.0.0.5", parse(Map.of("OVERSEER_BIND_ADDRESS", "10.0.0.5", "OVERSEER_EXPOSE_DEMO_USER", "yes"))
                .bindAddress());
        assertNull(parse(Map.of(), "--bind-address", "0.0.0.0", "--expose-demo-user", "yes").bindAddress(),
                "all interfaces");
        for (String bad : new String[] {"localhost", "256.0.0.1", "1.2.3", "::1", "1.2.3.4.5"}) {
            UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--bind-address", bad), bad);
            assertTrue(e.getMessage().contains("IPv4"), e.getMessage());
        }
    }

    @Test
    void anAddressBeyondLoopbackMustBeAskedForTwice() {
        for (String address : new String[] {"0.0.0.0", "10.0.0.5"}) {
            UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--bind-address", address));
            assertTrue(e.getMessage().contains("demo/demo") && e.getMessage().contains("--expose-demo-user yes"),
                    e.getMessage());
            UsageException notYes = assertThrows(UsageException.class,
                    () -> parse(Map.of(), "--bind-address", address, "--expose-demo-user", "true"));
            assertTrue(notYes.getMessage().contains("--expose-demo-user yes"), notYes.getMessage());
        }
        assertEquals("127.0.0.2", parse(Map.of(), "--bind-address", "127.0.0.2").bindAddress(), "any loopback address");
    }

    @Test
    void flagsInBothSpellings() {
        LauncherOptions o = parse(Map.of(), "--http-port", "18080", "--db-port=15432", "--data-dir", "/tmp/x/../y");
        assertEquals(18080, o.httpPort());
        assertEquals(15432, o.dbPort());
        assertEquals(Path.of("/tmp/y"), o.dataDir());
        assertEquals("jdbc:postgresql://127.0.0.1:15432/overseer", o.effectiveDbUrl());
    }

    @Test
    void environmentIsTheFallbackAndFlagsWin() {
        Map<String, String> env = Map.of("OVERSEER_HTTP_PORT", "9000", "OVERSEER_SIMULATOR_PORT", "9001",
                "OVERSEER_DATA_DIR", "/tmp/envdir");
        LauncherOptions o = parse(env, "--http-port", "9100");
        assertEquals(9100, o.httpPort());
        assertEquals(9001, o.simulatorPort());
        assertEquals(Path.of("/tmp/envdir"), o.dataDir());
    }

    @Test
    void blankEnvironmentValuesAreIgnored() {
        assertEquals(8080, parse(Map.of("OVERSEER_HTTP_PORT", "  ")).httpPort());
    }

    @Test
    void replicatedDatabaseNamesBothHostsAndTheDriverPicksThePrimary() {
        LauncherOptions o = parse(Map.of("OVERSEER_DB_HA", "yes"), "--db-port", "15432");
        assertTrue(o.dbHa());
        assertTrue(o.embeddedDb(), "the launcher starts it");
        assertEquals("jdbc:postgresql://127.0.0.1:15432,127.0.0.1:15433/overseer?targetServerType=primary"
                + "&hostRecheckSeconds=2&connectTimeout=2&loginTimeout=5&socketTimeout=10&tcpKeepAlive=true",
                o.effectiveDbUrl());
        assertEquals("overseer", o.effectiveDbUser());
        assertFalse(parse(Map.of()).dbHa(), "off by default");
    }

    @Test
    void replicatedDatabaseRefusesAnExternalOneAndPortsItWouldTake() {
        UsageException external = assertThrows(UsageException.class, () -> parse(Map.of(), "--db-ha",
                "--db-url", "jdbc:postgresql://db.local:5432/ovs", "--db-user", "app"));
        assertTrue(external.getMessage().contains("docs/database-ha.md"), external.getMessage());
        UsageException simulator = assertThrows(UsageException.class,
                () -> parse(Map.of(), "--db-ha", "--db-port", "8085"));
        assertTrue(simulator.getMessage().contains("--simulator-port 8090"), simulator.getMessage());
        UsageException http = assertThrows(UsageException.class,
                () -> parse(Map.of(), "--db-ha", "--db-port", "18075", "--http-port", "18080"));
        assertTrue(http.getMessage().contains("--http-port 18080"), http.getMessage());
        UsageException end = assertThrows(UsageException.class, () -> parse(Map.of(), "--db-ha", "--db-port", "65530"));
        assertTrue(end.getMessage().contains("up to 65526"), end.getMessage());
        assertEquals(18070, parse(Map.of(), "--db-ha", "--db-port", "18070", "--http-port", "18080").dbPort(),
                "the ports just below the HTTP port");
    }

    @Test
    void externalDatabase() {
        LauncherOptions o = parse(Map.of("OVERSEER_DB_PASSWORD", "s3cret"),
                "--db-url", "jdbc:postgresql://db.local:5432/ovs", "--db-user", "app");
        assertFalse(o.embeddedDb());
        assertEquals("jdbc:postgresql://db.local:5432/ovs", o.effectiveDbUrl());
        assertEquals("app", o.effectiveDbUser());
        assertEquals("s3cret", o.effectiveDbPassword());
    }

    @Test
    void externalBroker() {
        LauncherOptions o = parse(Map.of(), "--broker-host", "10.0.0.5", "--broker-port", "61617",
                "--broker-user", "u", "--broker-password", "p");
        assertFalse(o.localBroker());
        assertEquals("10.0.0.5", o.effectiveBrokerHost());
        assertEquals(61617, o.brokerPort());
        assertEquals("u", o.brokerUser());
        assertEquals("p", o.brokerPassword());
    }

    @Test
    void appPropertiesFromFlagsAndEnvironment() {
        LauncherOptions o = parse(Map.of("OVERSEER_APP_PROPERTIES", "a=1  b=x=y"),
                "-D", "c=3", "-Dd=4", "--app-property", "e=", "--app-property=a=override");
        assertEquals(Map.of("a", "override", "b", "x=y", "c", "3", "d", "4", "e", ""), o.appProperties());
    }

    @Test
    void help() {
        assertTrue(parse(Map.of(), "--help").help());
        assertTrue(parse(Map.of(), "-h").help());
        String usage = LauncherCommand.usage();
        for (Opt opt : Opt.values()) {
            assertTrue(usage.contains(opt.flag), opt.flag);
            assertTrue(usage.contains(opt.env), opt.env);
        }
    }

    /** ./run --help prints launcher/usage.txt without building the launcher: it must be today's text. */
    @Test
    void theCheckedInHelpIsTheLaunchersOwn() throws java.io.IOException {
        assertEquals(LauncherCommand.usage(), java.nio.file.Files.readString(Path.of("usage.txt")),
                "launcher/usage.txt is stale: write the output of java -jar launcher/target/overseer-launcher.jar --help"
                        + " into it");
    }

    @Test
    void aLaterFlagWinsOverAnEarlierOne() {
        assertEquals(9002, parse(Map.of(), "--http-port", "9001", "--http-port=9002").httpPort());
    }

    @Test
    void usageErrors() {
        assertThrows(UsageException.class, () -> parse(Map.of(), "--bogus"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "positional"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--http-port"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--http-port", "http"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--http-port", "70000"));
        assertThrows(UsageException.class, () -> parse(Map.of("OVERSEER_DB_PORT", "x")));
        assertThrows(UsageException.class, () -> parse(Map.of(), "-D", "novalue"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--db-url", "jdbc:mysql://x/y", "--db-user", "u"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--db-url", "jdbc:postgresql://x/y"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--db-user", "u"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--broker-host", "h", "--broker-user", "u"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--broker-password", "p"));
    }

    @Test
    void unknownOptionMessageNamesIt() {
        UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--htp-port", "1"));
        assertTrue(e.getMessage().contains("--htp-port"), e.getMessage());
    }

    @Test
    void brokerHaIsASwitchOrAnEnvironmentVariable() {
        assertFalse(parse(Map.of()).brokerHa());
        assertTrue(parse(Map.of(), "--broker-ha").brokerHa());
        assertTrue(parse(Map.of("OVERSEER_BROKER_HA", "true")).brokerHa());
        assertTrue(parse(Map.of("OVERSEER_BROKER_HA", "1")).brokerHa());
        assertFalse(parse(Map.of("OVERSEER_BROKER_HA", "true"), "--broker-ha=false").brokerHa());
        LauncherOptions o = parse(Map.of(), "--broker-ha", "--broker-port", "7000", "--console-port", "7100");
        assertEquals(7001, o.brokerBackupPort());
        assertEquals(7101, o.backupConsolePort());
        // A switch takes no value: the next word is an option of its own.
        assertEquals(9000, parse(Map.of(), "--broker-ha", "--http-port", "9000").httpPort());
    }

    @Test
    void brokerHaRefusesWhatItCannotDo() {
        UsageException notBoolean = assertThrows(UsageException.class,
                () -> parse(Map.of("OVERSEER_BROKER_HA", "maybe")));
        assertTrue(notBoolean.getMessage().contains("OVERSEER_BROKER_HA"), notBoolean.getMessage());
        UsageException external = assertThrows(UsageException.class, () -> parse(Map.of(), "--broker-ha",
                "--broker-host", "mq", "--broker-user", "u", "--broker-password", "p"));
        assertTrue(external.getMessage().contains("docs/broker-ha.md"), external.getMessage());
        UsageException backupOnConsole = assertThrows(UsageException.class, () -> parse(Map.of(), "--broker-ha",
                "--broker-port", "8160", "--console-port", "8161"));
        assertTrue(backupOnConsole.getMessage().contains("8161"), backupOnConsole.getMessage());
        UsageException backupOnHttp = assertThrows(UsageException.class, () -> parse(Map.of(), "--broker-ha",
                "--broker-port", "8079"));
        assertTrue(backupOnHttp.getMessage().contains("backup broker's port"), backupOnHttp.getMessage());
        // Without --broker-ha the port above the broker's is free for anything.
        assertEquals(8079, parse(Map.of(), "--broker-port", "8079").brokerPort());
    }

    @Test
    void anApplicationOfTheUsersOwnSuitsItsRuntime(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path ear = java.nio.file.Files.createFile(dir.resolve("orders.ear"));
        Path war = java.nio.file.Files.createFile(dir.resolve("orders.war"));
        assertNull(parse(Map.of()).application(), "Overseer's own unless asked");
        assertEquals(ear, parse(Map.of(), "--runtime", "payara-server", "--application", ear.toString()).application());
        assertEquals(war, parse(Map.of("OVERSEER_APPLICATION", war.toString())).application());
        UsageException wrongKind = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> parse(Map.of(), "--application", ear.toString()));
        assertTrue(wrongKind.getMessage().contains("payara-micro is a .war file"), wrongKind.getMessage());
        UsageException missing = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> parse(Map.of(), "--runtime", "wildfly", "--application", dir.resolve("gone.ear").toString()));
        assertTrue(missing.getMessage().contains("no such file"), missing.getMessage());
        StackLayout layout = StackLayout.fromDirectory(dir).withApplication(war);
        assertEquals(war, layout.war());
        assertEquals(dir.resolve("overseer.ear"), layout.ear(), "the other kind stays the stack's");
    }

    @Test
    void applicationPropertiesFromAFileUnderTheFlags(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("app.properties"),
                "# the team's settings\nexample.screening.url=${overseer.remote-service.url}\noverseer.workflows.file=/x\n");
        LauncherOptions o = parse(Map.of(), "--app-properties", file.toString(), "-Doverseer.workflows.file=/y");
        assertEquals("${overseer.remote-service.url}", o.appProperties().get("example.screening.url"));
        assertEquals("/y", o.appProperties().get("overseer.workflows.file"), "a flag wins over the file");
        UsageException unreadable = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> parse(Map.of(), "--app-properties", dir.resolve("none").toString()));
        assertTrue(unreadable.getMessage().contains("cannot read"), unreadable.getMessage());
    }
}
