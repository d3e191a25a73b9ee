/**
 * The MicroProfile Health probes, in a library of their own because some servers take an EAR's health
 * checks only from beans in its {@code lib/} (see {@link io.overseer.health.probes.HealthChecks}). They
 * hold no checks: web-module's {@code io.overseer.health} registers them at start. Imports nothing of the
 * application.
 */
package io.overseer.health.probes;
