/**
 * Messages out to people and clients: operator alerts on the alerts topic
 * ({@link io.overseer.notification.AlertPublisher}) and the submitters' status notifications
 * ({@link io.overseer.notification.StatusNotifier}, kept in an outbox until the broker has them), with
 * where a client may ask for them to go ({@link io.overseer.notification.ReplyTo},
 * {@link io.overseer.notification.ReplyToRule}).
 *
 * <p>Status notifications follow committed transitions: this package observes the state store's
 * transition event rather than being told by each actor, so it knows no actor. May import:
 * {@code platform}, {@code messaging}, {@code statestore}.
 */
package io.overseer.notification;
