package io.overseer.agent.api;

/**
 * How a coded agent ({@link RemoteService}) working on a long call reports that it is alive, so that a dead
 * or hung one is noticed long before the attempt's deadline. Overseer provides it as an enterprise bean under
 * {@link #JNDI_NAME}: inject it with {@code @EJB(lookup = Heartbeats.JNDI_NAME)}, which works from any module
 * of the application, an EAR's {@code lib/} included (plain {@code @Inject} works only where CDI sees Overseer's
 * EJB module, which a library in {@code lib/} does not), and call {@link #beat} more often than
 * {@link AgentRequest#heartbeat()}:
 *
 * <pre>{@code
 * @EJB(lookup = Heartbeats.JNDI_NAME) Heartbeats heartbeats;
 *
 * public CallResult call(AgentRequest request, Duration timeout) {
 *     for (Chunk chunk : work(request)) {
 *         if (!heartbeats.beat(request)) {
 *             return CallResult.transientFault("attempt taken over; stopping");  // its reply would be stale
 *         }
 *         chunk.process();
 *     }
 *     return CallResult.success("done");
 * }}</pre>
 *
 * An attempt that stays silent longer than its step's heartbeat is expired by the supervisor as if its
 * deadline had passed: retried (maybe on another instance) or given up by the step's policy.
 */
public interface Heartbeats {

    /**
     * Where Overseer binds its bean in the application's naming context, on every runtime. Compiled into your
     * code by {@code @EJB(lookup = …)}: it does not change within a major version.
     */
    String JNDI_NAME = "java:app/overseer/Heartbeats";

    /**
     * Reports the attempt alive: its heartbeat deadline moves to now plus {@link AgentRequest#heartbeat()}.
     * Each beat is one small write in a transaction of its own. For a step without a heartbeat nothing is
     * written.
     *
     * @param request the request your {@link RemoteService#call} received (not one of your own making)
     * @return whether the attempt is still the running one: false once it was expired, answered or
     *         cancelled, when the agent should stop working on it
     * @throws IllegalArgumentException when {@code request} is not one Overseer gave
     */
    boolean beat(AgentRequest request);
}
