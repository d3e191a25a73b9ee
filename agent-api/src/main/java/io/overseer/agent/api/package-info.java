/**
 * Overseer's public agent API: how a team's own Java code performs a workflow step against a remote service.
 *
 * <p>Implement {@link io.overseer.agent.api.RemoteService} in an {@code @ApplicationScoped} class of your own
 * library (a jar in your EAR's {@code lib/}, beside this API, or in your WAR's {@code WEB-INF/lib}); Overseer
 * finds it at deployment and sends it every step whose operation it {@linkplain
 * io.overseer.agent.api.RemoteService#performs performs}, as an {@link io.overseer.agent.api.AgentRequest}.
 * It answers with a {@link io.overseer.agent.api.CallResult}; a long call reports it is alive through
 * {@link io.overseer.agent.api.Heartbeats}. Everything else around the call (deadline, fencing, retries,
 * circuit breaker, metrics, tracing, the reply) is Overseer's.
 *
 * <h2>Compatibility</h2>
 * This package is the only part of Overseer a team compiles against, and it follows semantic versioning
 * from 1.0 on (before 1.0, a minor release is treated as a major one):
 * <ul>
 *   <li>A <b>patch or minor release</b> does not remove or change anything here: no type, method,
 *       constant or enum value is removed or renamed, no signature changes, and no method is added to an
 *       interface you implement ({@link io.overseer.agent.api.RemoteService}) unless it is a
 *       {@code default} method. A code compiled against x.y runs unchanged on x.z for z &gt; y.</li>
 *   <li>A minor release may add: types, {@code default} methods of {@code RemoteService}, methods of the
 *       interfaces Overseer implements and you only call ({@link io.overseer.agent.api.AgentRequest},
 *       {@link io.overseer.agent.api.Heartbeats}), and factory and accessor methods of
 *       {@link io.overseer.agent.api.CallResult}. Do not implement those interfaces yourself except in
 *       tests, or expect to add the new methods when you upgrade. It adds no value to
 *       {@link io.overseer.agent.api.CallResult.Kind}, so a {@code switch} over its values stays exhaustive,
 *       and changes no constant ({@link io.overseer.agent.api.Heartbeats#JNDI_NAME}).</li>
 *   <li>A major release may change anything, and its release notes say how to move.</li>
 *   <li>The meaning of each element is its javadoc here: behaviour the javadoc does not promise (the
 *       order in which requests arrive, which thread calls you, the text of details) may change in any
 *       release.</li>
 * </ul>
 * Overseer's other artifacts (its EJB and web modules) are assembled, not compiled against: their classes
 * are not an API and change in any release. Match this jar's version with theirs, through the BOM
 * ({@code io.overseer:overseer-bom}).
 */
package io.overseer.agent.api;
