package io.overseer.scheduler;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Who may answer on the agents' reply queue: the broker user the application itself connects as
 * ({@code overseer.agent.reply-user}), compared with the user the broker authenticated and stamped on the
 * message (populate-validated-user in broker.xml). Not configured: every sender is accepted — the fencing
 * token still guards each reply — and the start says so, loudly.
 */
@ApplicationScoped
public class ReplySenders {

    private static final Logger LOG = Logger.getLogger(ReplySenders.class.getName());

    @Inject
    @ConfigProperty(name = "overseer.agent.reply-user")
    Optional<String> replyUser;

    @PostConstruct
    void warnIfOpen() {
        if (replyUser.isEmpty()) {
            LOG.warning("overseer.agent.reply-user is not set: agent replies are accepted from any broker user"
                    + " allowed to send to agent.replies (their fencing token is still checked). Set it to the"
                    + " application's broker user.");
        }
    }

    public boolean isAgent(String validatedUser) {
        return replyUser.map(user -> user.equals(validatedUser)).orElse(true);
    }
}
