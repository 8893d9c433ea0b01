/**
 * The application's logging backend setup (Logback): the line format chosen at start-up, text for
 * people or JSON lines for log shippers ({@link dev.quarry.app.logging.Logging}), and the JSON
 * layout ({@link dev.quarry.app.logging.JsonLineLayout}). Only the application configures logging;
 * the modules a host embeds log through slf4j-api alone.
 */
package dev.quarry.app.logging;
