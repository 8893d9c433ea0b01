/**
 * The retrieval endpoints: one handler per endpoint ({@link dev.quarry.api.routes.CorpusRoutes},
 * {@code SourceRoutes}, {@code SearchRoute}), each reading a wire record, calling {@code Corpora}
 * and writing a wire record. Every endpoint ({@link dev.quarry.api.routes.RetrievalEndpoint} for
 * the JSON routes, {@link dev.quarry.api.routes.IngestEndpoint}, and {@code RunsEndpoint}) extends
 * {@link dev.quarry.api.routes.Endpoint}, whose final {@code handle} applies the contract's order
 * of checks (version, authentication, feature, then the endpoint's content type, size and body
 * bytes, then capacity, then the body's JSON and the work); {@link
 * dev.quarry.api.routes.ErrorResponses} turns every failure into the error envelope.
 *
 * <p>The table of endpoints is {@link dev.quarry.api.routes.RetrievalRoutes#over}.
 *
 * <p>Must not know: how tokens are stored, the standalone server (CORS, /v1/protocol, /healthz), or
 * the engine's internals; grants are decided by the corpora layer from the {@code Access} given.
 */
package dev.quarry.api.routes;
