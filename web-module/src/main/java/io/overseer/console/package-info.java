/**
 * The operator console's delivery: the single page in {@code webapp/console/} (docs/console.md) and the
 * response headers that confine it. The console reads and acts only through the admin API, so this
 * package holds no data and uses only the Servlet API: May import nothing of the application.
 */
package io.overseer.console;
