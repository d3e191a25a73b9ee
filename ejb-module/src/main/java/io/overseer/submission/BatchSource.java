package io.overseer.submission;

import io.overseer.notification.ReplyTo;

/**
 * Where a batch came from, which every order of it shares.
 *
 * @param scope           whose keys the orders' idempotency keys are ({@link SubmissionKey#scope()}):
 *                        {@code http:<user>}, {@code jms:<broker user>}, {@code local:<caller>},
 *                        {@code schedule:<id>}
 * @param submitter       who may be named as reply-to ({@link io.overseer.notification.ReplyToRule})
 * @param replyTo         the message's own reply-to, which wins over each order's {@code replyTo}; null for none
 * @param announceReplays whether an order answered with the earlier one of its key is announced again: a
 *                        message may be a redelivery after a crash between the first delivery's commit and
 *                        its hints' departure ({@link OrderSubmission#accept})
 */
public record BatchSource(String scope, String submitter, ReplyTo replyTo, boolean announceReplays) {

    public static BatchSource http(String user) {
        return new BatchSource("http:" + user, user, null, false);
    }

    static BatchSource jms(String sender, ReplyTo replyTo) {
        return new BatchSource("jms:" + (sender == null ? "" : sender), sender, replyTo, true);
    }

    /** A recurring schedule's ticks: their keys are the ticks, scoped to the schedule; no reply-to of their own. */
    public static BatchSource schedule(String scheduleId) {
        return new BatchSource("schedule:" + scheduleId, "schedule:" + scheduleId, null, false);
    }

    static BatchSource local(String caller) {
        return new BatchSource("local:" + caller, caller, null, false);
    }
}
