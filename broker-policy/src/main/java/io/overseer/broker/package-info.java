/**
 * A plugin that runs inside the Artemis broker, not in the application: it enforces, on the addresses
 * clients send to, what the application can check only after the broker has stored a message (the largest
 * message, the sender's validated user). Outside the pattern's actors, and built against the broker alone:
 * it imports nothing of the application, and repeats the few names it shares with it, each comment
 * pointing at the application's {@code io.overseer.messaging.Destinations}.
 */
package io.overseer.broker;
