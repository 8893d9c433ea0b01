/**
 * The retrieval endpoints: one handler per endpoint ({@link dev.quarry.api.routes.CorpusRoutes},
 * {@code SourceRoutes}, {@code SearchRoute}), each reading a wire record, calling {@code Corpora}
 * and writing a wire record, behind one {@link dev.quarry.api.routes.RetrievalEndpoint} that applies
 * the contract's order of checks (version, authentication, feature, capacity, content type, size,
 * body) and turns every failure into the error envelope.
 *
 * <p>The table of endpoints is {@link dev.quarry.api.routes.RetrievalRoutes#over}.
 *
 * <p>Must not know: how tokens are stored, the standalone server (CORS, /v1/protocol, /healthz),
 * or the engine's internals; grants are decided by the corpora layer from the {@code Access} given.
 */
package dev.quarry.api.routes;
