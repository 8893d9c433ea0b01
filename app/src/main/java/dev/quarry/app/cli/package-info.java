/**
 * The {@code quarry} command line (picocli): {@link dev.quarry.app.cli.QuarryCli} with {@code
 * serve} (the standalone server until SIGTERM) and {@code demo} (a server with a sample corpus and
 * curl commands). Commands print for people; {@code serve} prints exactly one line on stdout, the
 * address it listens on, so scripts can wait for it.
 *
 * <p>Must not know: the wire shapes or the engine; it starts a {@code QuarryServer} and stops it.
 */
package dev.quarry.app.cli;
