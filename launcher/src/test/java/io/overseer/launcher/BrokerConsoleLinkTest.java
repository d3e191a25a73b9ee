package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator console links the broker's console that ./run starts, unless told another (docs/console.md). */
class BrokerConsoleLinkTest {

    private static final String KEY = Stack.BROKER_CONSOLE_URL;

    private static BrokerNode localBroker() {
        LauncherOptions options = LauncherOptions.parse(new String[0], Map.of("OVERSEER_DATA_DIR", "/tmp/ovs"));
        return new Stack(options, StackLayout.fromDirectory(Path.of("/tmp/stack"))).broker();
    }

    @Test
    void theLocalBrokersConsoleIsLinked() {
        assertEquals("http://localhost:8161/console", Stack.withBrokerConsole(Map.of(), localBroker()).get(KEY));
    }

    @Test
    void aConfiguredLinkIsKept() {
        assertEquals("https://mq.example/console",
                Stack.withBrokerConsole(Map.of(KEY, "https://mq.example/console"), localBroker()).get(KEY));
    }

    @Test
    void anExternalBrokerIsNotLinked() {
        assertEquals(Map.of(), Stack.withBrokerConsole(Map.of(), null));
    }
}
