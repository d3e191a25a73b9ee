package io.overseer.bench;

import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The application server's threads by what they do, told apart by the name the kernel keeps for each
 * (/proc/PID/task/TID/comm: the Java thread's name cut to 15 characters). The Payara names are those a
 * running Payara Micro 6 showed (jcmd Thread.print against comm, under orders); WildFly's are its defaults:
 *
 * <ul>
 *   <li>{@link Group#REQUEST}: HTTP requests — Payara's {@code http-thread-pool::http-listener(N)} workers
 *   ({@code http-thread-poo}) and Grizzly's {@code http-listener-kernel(N) SelectorRunner}; WildFly's
 *   {@code default task-N} and {@code default I/O-N} (Undertow).</li>
 *   <li>{@link Group#MDB}: the broker client's threads, on which the Artemis resource adapter delivers to the
 *   MDBs: {@code Thread-N (activemq-client-global)} — cut to {@code Thread-9 (activ}, no longer told apart from
 *   the client's {@code Thread-N (activemq-client-remoting)} and {@code …-global-scheduled} threads, which carry
 *   the same messages' I/O and acknowledgements, so all three are this group.</li>
 *   <li>{@link Group#COURIER}: {@code overseer-courier-N}, the application's own sender.</li>
 *   <li>{@link Group#AGENT}: the container's managed threads, on which the agents run their attempts
 *   (AgentWorkers: Payara's {@code concurrent/__defaultManagedThreadFactory-Thread-N}, WildFly's
 *   {@code EE-ManagedThreadFactory-default…}), and the JDK HTTP client's {@code HttpClient-N-SelectorManager},
 *   the remote calls' I/O. The event stream's senders and the default managed executor
 *   ({@code concurrent/__defaultManagedExecutorService…}) share the cut name; the bench opens no event stream
 *   and the executor serves the health probes, idle under orders.</li>
 *   <li>{@link Group#GC}: HotSpot's collector threads ({@code GC Thread#N}, G1's {@code G1 …} threads).</li>
 *   <li>{@link Group#JIT}: HotSpot's compiler threads ({@code C1 CompilerThread…}, {@code C2 CompilerThread…}).</li>
 *   <li>{@link Group#OTHER}: the rest — the VM thread (safepoints), timers, pollers, the JVM's housekeeping.</li>
 * </ul>
 */
final class ServerThreads {

    /** The groups, in the order of the report's columns. */
    enum Group {
        REQUEST("request"), MDB("mdb"), COURIER("courier"), AGENT("agent"), GC("gc"), JIT("jit"), OTHER("other");

        final String key;

        Group(String key) {
            this.key = key;
        }
    }

    /** Artemis's client threads, "Thread-12 (activemq-client-global)" (WildFly: "…(ActiveMQ-client-…"), cut at 15. */
    private static final Pattern BROKER_CLIENT = Pattern.compile("Thread-\\d+ \\((?i:a.*)?");

    private ServerThreads() {
    }

    static Group classify(String comm) {
        String n = comm.strip();
        if (n.startsWith("C1 CompilerThre") || n.startsWith("C2 CompilerThre")) {
            return Group.JIT;
        }
        if (n.startsWith("GC Thread") || n.startsWith("G1 ")) {
            return Group.GC;
        }
        if (n.startsWith("http-thread-poo") || n.startsWith("http-listener") || n.startsWith("default task-")
                || n.startsWith("default I/O-")) {
            return Group.REQUEST;
        }
        if (n.startsWith("overseer-courie")) {
            return Group.COURIER;
        }
        if (BROKER_CLIENT.matcher(n).matches()) {
            return Group.MDB;
        }
        if (n.startsWith("concurrent/__de") || n.startsWith("EE-ManagedThrea") || n.startsWith("HttpClient-")) {
            return Group.AGENT;
        }
        return Group.OTHER;
    }

    /** Ticks per group between two readings of the threads (by thread id); a thread first seen in {@code b} counts from 0. */
    static Map<Group, Long> ticksBetween(Map<Long, ProcessCpu.ThreadTicks> a, Map<Long, ProcessCpu.ThreadTicks> b) {
        Map<Group, Long> sums = new EnumMap<>(Group.class);
        for (Group g : Group.values()) {
            sums.put(g, 0L);
        }
        for (Map.Entry<Long, ProcessCpu.ThreadTicks> thread : b.entrySet()) {
            ProcessCpu.ThreadTicks before = a.get(thread.getKey());
            long used = thread.getValue().ticks() - (before == null ? 0 : before.ticks());
            sums.merge(classify(thread.getValue().name()), Math.max(0, used), Long::sum);
        }
        return sums;
    }
}
