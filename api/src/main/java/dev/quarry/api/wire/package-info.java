/**
 * The wire: what goes over HTTP and nothing else. Strict reading of request bodies ({@link
 * dev.quarry.api.wire.StrictJson}, {@link dev.quarry.api.wire.WireObject}) into the engine's
 * operations, with every error naming the field's path; explicit writing of responses from the
 * engine's records ({@code *Responses}); the error envelope and the one mapping from {@code
 * ErrorCode} to HTTP status; the advertised {@link dev.quarry.api.wire.Limits} and {@link
 * dev.quarry.api.wire.Feature}s; the idempotency fingerprint ({@link
 * dev.quarry.api.wire.CanonicalJson}).
 *
 * <p>Common call: {@code SearchBody.read(WireObject.root(json.parseObject(bytes)), limits)}.
 *
 * <p>Must not know: Javalin, Jetty, tokens or how a request arrived; engine records never leave
 * this package as JSON without passing through a writer here.
 */
package dev.quarry.api.wire;
