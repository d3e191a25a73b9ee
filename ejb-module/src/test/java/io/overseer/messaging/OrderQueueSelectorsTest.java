package io.overseer.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Arrays;
import java.util.Set;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.selector.filter.BooleanExpression;
import org.apache.activemq.artemis.selector.filter.FilterException;
import org.apache.activemq.artemis.selector.filter.Filterable;
import org.apache.activemq.artemis.selector.impl.SelectorParser;
import org.junit.jupiter.api.Test;

/**
 * The order queue's two listeners split it by selector ({@link OrderQueueMessage}): every message must
 * have exactly one consumer, or it would wait on the queue for ever. Evaluated with the broker's own
 * selector parser, for every type clients write and some they should not.
 */
class OrderQueueSelectorsTest {

    private static final Set<String> SCHEDULERS = Set.of("DISPATCH", "dispatch", "Dispatch", "EVENT", "event", "Event");

    @Test
    void everyMessageTypeHasExactlyOneListenerAndTheSchedulerTakesOnlyItsOwn() throws FilterException {
        BooleanExpression scheduler = SelectorParser.parse(OrderQueueMessage.SCHEDULER_SELECTOR);
        BooleanExpression submission = SelectorParser.parse(OrderQueueMessage.SUBMISSION_SELECTOR);
        for (String type : Arrays.asList(null, "", " ", "submit", "SUBMIT", "Submit", " submit", "DISPATCH", "dispatch",
                "Dispatch", "EVENT", "event", "Event", "eVeNt", " event", "bogus")) {
            boolean toScheduler = scheduler.matches(message(type));
            assertNotEquals(toScheduler, submission.matches(message(type)), "type " + type + ": one listener");
            assertEquals(type != null && SCHEDULERS.contains(type), toScheduler, "type " + type);
        }
    }

    private static Filterable message(String type) {
        return new Filterable() {
            @Override
            public <T> T getBodyAs(Class<T> kind) {
                return null;
            }

            @Override
            public Object getProperty(SimpleString name) {
                return name.toString().equals(Destinations.MESSAGE_TYPE) ? type : null;
            }

            @Override
            public Object getLocalConnectionId() {
                return null;
            }
        };
    }
}
