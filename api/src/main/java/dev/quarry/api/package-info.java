/**
 * Quarry's HTTP face for hosts: {@link dev.quarry.api.QuarryPlugin}, a Javalin plugin serving the
 * retrieval contract below {@code /v1/retrieval/}, configured through {@link
 * dev.quarry.api.QuarryPluginConfig} with a {@code Corpora} and an {@link
 * dev.quarry.api.Authenticator}.
 *
 * <p>Sub-packages: {@code wire} (JSON shapes, strict reading, the error envelope), {@code routes}
 * (one handler per endpoint), {@code runs} (the reference host's {@code POST /v1/runs}), {@code
 * server} (the standalone server: tokens, CORS, {@code /v1/protocol}, {@code /healthz}), {@code
 * cli} (the {@code quarry} command).
 *
 * <p>Must not know: Lucene or the engine's internals; grants are enforced by {@code corpora}, this
 * package only authenticates and passes the caller's {@code Access} on.
 */
package dev.quarry.api;
