package io.overseer.system;

import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.TestStack;
import java.nio.file.Path;

/** Application servers that system tests start, kill and restart themselves, joined to the TestStack. */
final class SystemServers {

    private SystemServers() {
    }

    static AppServerNode payaraMicro(String name) {
        var postgres = TestStack.postgres();
        var broker = TestStack.broker();
        AppServerConfig config = new AppServerConfig(TestStack.freePort(), postgres.jdbcUrl(), postgres.appUser(),
                postgres.appPassword(), "127.0.0.1", broker.port(), broker.user(), broker.password(),
                TestStack.simulatorUrl(), TestStack.appProperties(), "512m");
        Path dir = TestStack.workDir().resolve(name);
        return new AppServerNode(TestStack.layout(), dir, dir.resolve("payara.log"), config);
    }
}
