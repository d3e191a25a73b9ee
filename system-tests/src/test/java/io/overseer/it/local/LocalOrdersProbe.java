package io.overseer.it.local;

import io.overseer.submission.BatchOrder;
import io.overseer.submission.BatchResult;
import io.overseer.submission.LocalOrders;
import io.overseer.submission.OrderRequest;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A team's own code in the deployment, as BatchSubmissionIT needs it: it begins a transaction of its own,
 * submits {@code count} one-step orders for {@code customer} through {@link LocalOrders} (the in-process API),
 * and commits, or rolls back when {@code rollback=true}, as a job whose own work failed would. Answers the
 * results, one line each: the order id, or {@code refused: reason}. At a path no other test class calls.
 */
@WebServlet("/it/local-orders")
public class LocalOrdersProbe extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    transient LocalOrders orders;
    @Resource
    transient UserTransaction transaction;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String customer = request.getParameter("customer");
        int count = Integer.parseInt(request.getParameter("count"));
        boolean rollback = Boolean.parseBoolean(request.getParameter("rollback"));
        List<BatchOrder> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(BatchOrder.of(i, new OrderRequest(customer, List.of(new OrderRequest.Item("A-1", i + 1)),
                    "single-charge", null, null, null), customer + "-" + i));
        }
        StringBuilder answer = new StringBuilder();
        try {
            transaction.begin();
            for (BatchResult result : orders.submitAll(batch)) {
                answer.append(result.accepted() ? result.orderId() : "refused: " + result.refusal().reason()).append('\n');
            }
            if (rollback) {
                transaction.rollback();
            } else {
                transaction.commit();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the local submission failed", e);
        }
        response.setContentType("text/plain");
        response.getWriter().write(answer.toString());
    }
}
