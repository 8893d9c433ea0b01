/**
 * The web console: static pages (HTML, CSS, JavaScript modules) shipped in the application's jar
 * under {@code console/} and served by the standalone server below {@link
 * dev.quarry.app.console.ConsoleAssets#PREFIX}, with a strict Content-Security-Policy.
 *
 * <p>The console holds no server-side state and no privileges of its own: the browser signs in with
 * a bearer token, keeps it in the tab's session storage, and calls the public HTTP API with it like
 * any other client. Entry type: {@link dev.quarry.app.console.ConsoleAssets}.
 *
 * <p>Must not know: corpora, grants or tokens; everything the console shows comes from the API.
 */
package dev.quarry.app.console;
