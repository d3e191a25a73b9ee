/**
 * The HTTP boundary (JAX-RS, described by {@code META-INF/openapi.yaml}): thin resources that take a
 * validated request, make one call into ejb-module, and let {@link io.overseer.api.ProblemMappers} turn
 * exceptions into problem responses. Orders enter through {@code submission}, external events reach
 * the {@code scheduler}, reads come from {@code query} (the API's views) and Server-Sent Events of an
 * order's history, and operators act through {@code admin}.
 *
 * <p>No resource talks to an agent, the supervisor or the notifications: the API starts work and reads
 * it, the pattern's actors do it. May import: {@code platform}, {@code statestore}, {@code messaging},
 * {@code query}, {@code submission}, {@code scheduler}, {@code admin}, {@code recurring} (a schedule's view and rules).
 */
package io.overseer.api;
