package io.overseer.system;

import io.overseer.support.TestStack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.logging.Logger;

/**
 * The system tests of one JVM share PostgreSQL and the broker: orders a failed test left unfinished
 * would be taken up by the next test's server (stranded-order poller, supervisor) and disturb its counts
 * of orders and effects. Once the failed test's servers are stopped, its unfinished orders are parked in
 * Error, which nothing claims again. Cleanup only: no test asserts anything about parked orders.
 */
final class LeftoverOrders {

    private static final Logger LOG = Logger.getLogger(LeftoverOrders.class.getName());

    private LeftoverOrders() {
    }

    /** Parks the unfinished orders of customers whose id starts with {@code customerPrefix}. */
    static void park(String customerPrefix, String test) {
        if (customerPrefix == null) {
            return;
        }
        String unfinished = "SELECT s.order_id FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND s.process_state IN ('Pending', 'Processing', 'Compensating')";
        try (Connection db = TestStack.db();
             PreparedStatement steps = db.prepareStatement("UPDATE step_state SET locked_by = NULL, complete_by = NULL"
                     + " WHERE order_id IN (" + unfinished + ")");
             PreparedStatement orders = db.prepareStatement("UPDATE order_state SET process_state = 'Error',"
                     + " locked_by = NULL, complete_by = NULL, last_error = ?, version = version + 1"
                     + " WHERE order_id IN (" + unfinished + ")")) {
            steps.setString(1, customerPrefix + "%");
            steps.executeUpdate();
            orders.setString(1, "left unfinished by " + test);
            orders.setString(2, customerPrefix + "%");
            int parked = orders.executeUpdate();
            if (parked > 0) {
                LOG.warning("Parked " + parked + " unfinished orders of " + test + " (" + customerPrefix + "*) in Error");
            }
        } catch (SQLException e) {
            LOG.warning("Could not park the unfinished orders of " + test + ": " + e);
        }
    }
}
