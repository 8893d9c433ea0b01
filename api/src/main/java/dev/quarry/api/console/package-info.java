/**
 * The web console: static pages (HTML, CSS, JavaScript modules) shipped in the plugin's jar under
 * {@code dev/quarry/api/console/} and served below {@link
 * dev.quarry.api.console.ConsoleAssets#PREFIX} with a strict Content-Security-Policy, by the
 * standalone server and, when it opts in ({@code QuarryPluginConfig.console(true)}), by a host that
 * embeds the plugin.
 *
 * <p>The console holds no server-side state and no privileges of its own: the browser signs in with
 * a bearer token, keeps it in the tab's session storage, and calls the public HTTP API with it like
 * any other client. Entry type: {@link dev.quarry.api.console.ConsoleAssets}.
 *
 * <p>Must not know: corpora, grants or tokens; everything the console shows comes from the API.
 */
package dev.quarry.api.console;
