package io.overseer.launcher;

import java.util.List;

/** A broker of the user's own ({@code --broker-host}): nothing of it runs here, so starting and stopping do nothing. */
public record ExternalBroker(String host, int port) implements BrokerNodes {

    @Override
    public String name() {
        return "external broker";
    }

    @Override
    public void start() {
        // not ours to start
    }

    @Override
    public void stop() {
        // not ours to stop
    }

    @Override
    public void kill9() {
        // not ours to kill
    }

    /** Nothing of it runs here. */
    @Override
    public boolean isAlive() {
        return false;
    }

    @Override
    public long pid() {
        return -1;
    }

    @Override
    public String clientHost() {
        return host;
    }

    @Override
    public AppServerConfig wire(AppServerConfig config) {
        return config;
    }

    @Override
    public List<SummaryRow> summaryRows() {
        return List.of(new SummaryRow("Broker (external)", "tcp://" + host + ":" + port));
    }

    @Override
    public boolean local() {
        return false;
    }
}
