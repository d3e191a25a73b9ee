/**
 * The remote service simulator: a stand-alone HTTP server playing the remote services the agents call,
 * applying each idempotency key's effect once (a ledger the tests and the chaos runner check) and
 * injecting the faults an operator or a test asks for. It stands outside the application, as a real
 * remote service would, so it imports nothing of it.
 */
package io.overseer.remoteservice;
