package io.overseer.support;

import io.overseer.launcher.BrokerUser;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.ReactorNettyTcpStompClient;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;

/**
 * A STOMP 1.2 client of the broker: Spring's STOMP client on Reactor Netty, as a non-Java-EE legacy
 * system would use one. Spring always sends a content-length header, so Artemis turns its SEND frames
 * into bytes messages; the order queue reads them as UTF-8.
 */
public final class StompClient implements AutoCloseable {

    /** A received MESSAGE frame. */
    public record Frame(StompHeaders headers, String body) {
        public Notification notification() {
            return Notification.of(headers.getFirst("correlation-id"), headers.getFirst("overseerEvent"), body);
        }
    }

    private final ReactorNettyTcpStompClient client;
    private final StompSession session;
    private final List<StompSession.Subscription> subscriptions = new ArrayList<>();

    public StompClient(BrokerUser user) {
        client = new ReactorNettyTcpStompClient("127.0.0.1", TestStack.brokerPort());
        client.setMessageConverter(new StringMessageConverter());
        StompHeaders connect = new StompHeaders();
        connect.setLogin(user.name());
        connect.setPasscode(user.password());
        try {
            session = client.connectAsync(connect, new StompSessionHandlerAdapter() { }).get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            client.shutdown();
            throw new IllegalStateException("STOMP connect failed", e);
        }
    }

    /** Subscribes to an anycast queue (Artemis would otherwise take a bare name as a multicast address). */
    public BlockingQueue<Frame> subscribeQueue(String queue) {
        BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
        StompHeaders headers = new StompHeaders();
        headers.setDestination(queue);
        headers.set("subscription-type", "ANYCAST");
        subscriptions.add(session.subscribe(headers, new StompFrameHandler() {
            @Override
            public Type getPayloadType(StompHeaders frameHeaders) {
                return String.class;
            }

            @Override
            public void handleFrame(StompHeaders frameHeaders, Object payload) {
                frames.add(new Frame(frameHeaders, (String) payload));
            }
        }));
        return frames;
    }

    /** Sends to an anycast queue with a receipt, so a refused frame fails here rather than silently. */
    public void send(String queue, Map<String, String> extraHeaders, String body) {
        StompHeaders headers = new StompHeaders();
        headers.setDestination(queue);
        headers.set("destination-type", "ANYCAST");
        extraHeaders.forEach(headers::set);
        session.send(headers, body);
    }

    /** Frames until a final notification, or until {@code timeout} passes. */
    public static List<Notification> untilFinal(BlockingQueue<Frame> frames, Duration timeout) throws InterruptedException {
        List<Notification> received = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Frame frame = frames.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (frame == null) {
                break;
            }
            Notification notification = frame.notification();
            received.add(notification);
            if (Notification.FINAL.contains(notification.event())) {
                break;
            }
        }
        return received;
    }

    @Override
    public void close() {
        subscriptions.forEach(StompSession.Subscription::unsubscribe);
        session.disconnect();
        client.shutdown();
    }
}
