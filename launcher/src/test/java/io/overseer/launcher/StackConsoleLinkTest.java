package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator console links to the broker's console when the stack starts the broker, and only then. */
class StackConsoleLinkTest {

    @Test
    void aLocalBrokersConsoleIsLinkedUnlessTheUserSetTheLink() {
        LauncherOptions local = LauncherOptions.parse(new String[0], Map.of());
        assertEquals("http://127.0.0.1:" + local.consolePort() + "/console",
                Stack.consoleLinked(Map.of(), local).get(Stack.BROKER_CONSOLE_URL));
        assertEquals("https://broker.example/console", Stack.consoleLinked(
                Map.of(Stack.BROKER_CONSOLE_URL, "https://broker.example/console"), local).get(Stack.BROKER_CONSOLE_URL));
    }

    @Test
    void anExternalBrokersConsoleIsNotGuessed() {
        LauncherOptions external = LauncherOptions.parse(new String[] {"--broker-host", "broker.internal",
                "--broker-user", "u", "--broker-password", "p"}, Map.of());
        assertFalse(Stack.consoleLinked(Map.of(), external).containsKey(Stack.BROKER_CONSOLE_URL));
    }
}
