package io.overseer.launcher;

import java.util.List;
import java.util.Optional;

/**
 * What a program adds to the stack its options describe, for a {@link Stack} that is not ./run's: the
 * application's own broker user (when empty, a local broker's is made up at every start, as ./run does), users
 * the broker knows besides it and the demo user, and whether the stack runs its application servers. The system
 * tests take the infrastructure only ({@link #infrastructure}) and start servers of their own, wired by
 * {@link Stack#serverConfig}.
 */
public record StackAdditions(Optional<BrokerUser> application, List<BrokerUser> brokerUsers, boolean servers) {

    /** ./run's stack: nothing added, the servers of the options. */
    public static final StackAdditions NONE = new StackAdditions(Optional.empty(), List.of(), true);

    public StackAdditions {
        brokerUsers = List.copyOf(brokerUsers);
    }

    /** The database, the broker (the application as {@code application}, and {@code brokerUsers}) and the simulator. */
    public static StackAdditions infrastructure(BrokerUser application, List<BrokerUser> brokerUsers) {
        return new StackAdditions(Optional.of(application), brokerUsers, false);
    }

    /**
     * The user the application servers connect to the broker as: a local broker's, or the one the options name
     * for an external broker.
     */
    BrokerUser applicationUser(LauncherOptions options) {
        if (!options.localBroker()) {
            return new BrokerUser(options.brokerUser(), options.brokerPassword(), List.of(BrokerUser.APPLICATION));
        }
        return application.orElseGet(() -> BrokerUser.generated("overseer-app", BrokerUser.APPLICATION));
    }
}
