package io.overseer.launcher;

import java.util.List;

/** A broker of the user's own ({@code --broker-host}): nothing of it runs here ({@link ExternalNode}). */
public record ExternalBroker(String host, int port) implements BrokerNodes, ExternalNode {

    @Override
    public String name() {
        return "external broker";
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
