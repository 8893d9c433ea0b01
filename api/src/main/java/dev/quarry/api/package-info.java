/**
 * Quarry's HTTP face for hosts: {@link dev.quarry.api.QuarryPlugin}, a Javalin plugin serving the
 * retrieval contract below {@code /v1/retrieval/}, configured through {@link
 * dev.quarry.api.QuarryPluginConfig} with a {@code Corpora} and an {@link
 * dev.quarry.api.Authenticator}.
 *
 * <p>Also here: {@link dev.quarry.api.OpenApiDocument}, the wire's OpenAPI 3.1 description ({@code
 * openapi.yaml}, a resource of this jar), and {@link dev.quarry.api.RequestIds}, the request id a
 * host binds to the request thread for internal-error envelopes to quote.
 *
 * <p>Sub-packages (internal): {@code wire} (JSON shapes, strict reading, the error envelope),
 * {@code routes} (one pipeline for every endpoint, one handler per endpoint), {@code runs} (the
 * reference host's {@code POST /v1/runs} and AG-UI's {@code POST /v1/agui/retrieval}), {@code
 * console} (the web console's static files). The standalone server and the {@code quarry} command
 * are the app module's.
 *
 * <p>Must not know: Lucene or the engine's internals; grants are enforced by {@code corpora}, this
 * package only authenticates and passes the caller's {@code Access} on.
 */
package dev.quarry.api;
