package io.overseer.bench.ceilings;

import io.overseer.bench.peers.Cli;
import io.overseer.bench.peers.Versions;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The broker's ceiling for what Overseer sends most: persistent 1 KB messages, with the Artemis JMS
 * client. Two figures: one send in flight (a non-transacted persistent send blocks until the broker
 * has journalled it), and transacted batches of 100 (one journal sync per commit). Every message sent
 * is consumed again before the program ends, and counted.
 *
 * <pre>
 * ArtemisCeiling --host H --port P --user U --password PW [--queue bench.ceiling] [--messages 20000]
 *                [--warmup 2000]
 * </pre>
 * The queue must exist (the project's broker.xml auto-creates nothing) and the user must be allowed to
 * send to, consume from and browse it. It must be EMPTY: the program refuses to start otherwise, because
 * draining would take someone else's messages (only messages an interrupted earlier run left, which
 * carry its run property, are removed first). On the project's broker the application's user may
 * use only {@code agent.#}: run this before the application starts (e.g. on agent.requests), or on a
 * broker whose broker.xml declares a bench queue. Never while the application consumes the queue.
 */
public final class ArtemisCeiling {

    private static final Set<String> ARGS = Set.of("host", "port", "user", "password", "queue", "messages", "warmup");
    private static final int BATCH = 100;
    private static final int MESSAGE_BYTES = 1024;
    /** Stamped on every message, so the drain can tell ours from anything else on the queue. */
    private static final String RUN_PROPERTY = "overseerBenchRun";

    public static void main(String[] args) {
        Cli.run("ArtemisCeiling", () -> new ArtemisCeiling().run(Cli.parse(args, ARGS)));
    }

    private void run(Cli cli) throws Exception {
        String url = "tcp://" + cli.required("host") + ":" + cli.required("port");
        String queueName = cli.get("queue", "bench.ceiling");
        int messages = cli.getInt("messages", 20_000);
        int warmup = cli.getInt("warmup", 2_000);
        if (messages < BATCH || messages % BATCH != 0) {
            throw new IllegalArgumentException("--messages must be a positive multiple of " + BATCH);
        }
        byte[] payload = new byte[MESSAGE_BYTES];
        new Random(42).nextBytes(payload); // incompressible, as a real body would be
        String runId = UUID.randomUUID().toString();

        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url);
             Connection connection = factory.createConnection(cli.required("user"), cli.required("password"))) {
            connection.start();
            Queue queue;
            try (Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
                queue = s.createQueue(queueName);
                removeLeftovers(connection, queue);
                requireEmpty(s, queue);
            }
            String version = Versions.of("org.apache.artemis", "artemis-jakarta-client", ActiveMQConnectionFactory.class);
            for (Mode mode : Mode.values()) {
                // Untimed first: the JIT and the journal's file pool warm up on messages nobody counts.
                if (warmup > 0) {
                    send(connection, queue, mode, roundUp(warmup), payload, runId);
                    drain(connection, queue, roundUp(warmup), runId);
                }
                long t0 = System.nanoTime();
                send(connection, queue, mode, messages, payload, runId);
                double seconds = (System.nanoTime() - t0) / 1e9;
                long d0 = System.nanoTime();
                drain(connection, queue, messages, runId);
                double drainSeconds = (System.nanoTime() - d0) / 1e9;

                Map<String, Object> r = Cli.result("ceiling.artemis.send." + mode.label, "messages/s", messages / seconds);
                r.put("messages", messages);
                r.put("messageBytes", MESSAGE_BYTES);
                r.put("persistent", true);
                r.put("inFlight", mode == Mode.ONE_IN_FLIGHT ? 1 : BATCH);
                r.put("transacted", mode == Mode.TRANSACTED_BATCH);
                r.put("seconds", Cli.round(seconds));
                r.put("queue", queueName);
                r.put("version", version);
                r.put("drainedPerSecond", Cli.round(messages / drainSeconds));
                Cli.print(r);
            }
        }
    }

    enum Mode {
        ONE_IN_FLIGHT("one-in-flight"), TRANSACTED_BATCH("tx-batch-100");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    private static int roundUp(int n) {
        return (n + BATCH - 1) / BATCH * BATCH;
    }

    private static void send(Connection connection, Queue queue, Mode mode, int count, byte[] payload, String runId)
            throws JMSException {
        boolean transacted = mode == Mode.TRANSACTED_BATCH;
        try (Session session = connection.createSession(transacted, transacted ? Session.SESSION_TRANSACTED
                : Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = session.createProducer(queue)) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < count; i++) {
                BytesMessage m = session.createBytesMessage();
                m.writeBytes(payload);
                m.setStringProperty(RUN_PROPERTY, runId);
                producer.send(m);
                if (transacted && (i + 1) % BATCH == 0) {
                    session.commit();
                }
            }
        }
    }

    /** Consumes exactly {@code count} of our messages, in transacted batches; anything foreign is an error. */
    private static void drain(Connection connection, Queue queue, int count, String runId) throws JMSException {
        try (Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
             MessageConsumer consumer = session.createConsumer(queue)) {
            int received = 0;
            while (received < count) {
                Message m = consumer.receive(10_000);
                if (m == null) {
                    session.commit();
                    throw new IllegalStateException("Drain stopped at " + received + " of " + count
                            + " messages: nothing arrived for 10 s");
                }
                if (!runId.equals(m.getStringProperty(RUN_PROPERTY))) {
                    session.rollback(); // give the foreign message back before failing
                    throw new IllegalStateException("A message not sent by this run arrived on " + queue.getQueueName()
                            + ": someone else uses the queue; the figures would be wrong");
                }
                received++;
                if (received % BATCH == 0) {
                    session.commit();
                }
            }
            session.commit();
        }
    }

    /**
     * Consumes what an earlier, interrupted run of this program left behind (messages carrying the run
     * property, whatever the run): a selector takes only those, never anyone else's.
     */
    private static void removeLeftovers(Connection connection, Queue queue) throws JMSException {
        int removed = 0;
        try (Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
             MessageConsumer consumer = session.createConsumer(queue, RUN_PROPERTY + " IS NOT NULL")) {
            while (consumer.receive(1_000) != null) {
                if (++removed % BATCH == 0) {
                    session.commit();
                }
            }
            session.commit();
        }
        if (removed > 0) {
            Cli.log("ArtemisCeiling: removed " + removed + " messages an earlier run left on " + queue.getQueueName());
        }
    }

    private static void requireEmpty(Session session, Queue queue) throws JMSException {
        try (QueueBrowser browser = session.createBrowser(queue)) {
            if (browser.getEnumeration().hasMoreElements()) {
                throw new IllegalStateException("Queue " + queue.getQueueName() + " is not empty: draining it would"
                        + " consume someone else's messages. Use an empty queue nobody else consumes.");
            }
        }
    }
}
