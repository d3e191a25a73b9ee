package io.overseer.agent;

/** The agents' configuration is wrong (a bad value, an operation no service performs): deployment fails. */
public class AgentConfigurationException extends RuntimeException {

    public AgentConfigurationException(String message) {
        super(message);
    }
}
