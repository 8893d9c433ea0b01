/**
 * What the modules' tests share: test support, used at test scope only and never published
 * (TESTING.md, "The test framework").
 *
 * <ul>
 *   <li>{@link dev.quarry.testing.TestSeed}: replayable randomness, one seed a run from {@code
 *       -Dtests.seed=<hex>}; a failing test prints the seed that replays it.
 *   <li>{@link dev.quarry.testing.HashingEmbedder}: a deterministic {@code Embedder} without a
 *       model, for tests that need vectors but not meaning.
 *   <li>{@link dev.quarry.testing.TestTokens}: the HTTP tests' tokens and the tokens file that
 *       grants them.
 *   <li>{@link dev.quarry.testing.ApiClient}: real HTTP on loopback, every answer held to {@code
 *       openapi.yaml} by {@link dev.quarry.testing.OpenApiContract} ({@link
 *       dev.quarry.testing.ObservedProperties} records which documented fields arrived); {@link
 *       dev.quarry.testing.Upload} writes multipart ingest bodies, {@link
 *       dev.quarry.testing.RunStream} reads and checks a run's event stream.
 *   <li>{@link dev.quarry.testing.OpenSearchNodes}: real OpenSearch nodes started from the {@code
 *       opensearch-plugin/} launcher; the tests that need them skip without it.
 * </ul>
 *
 * <pre>{@code
 * @ExtendWith(TestSeed.class)
 * class SomeRandomizedTest {
 *   @Test
 *   void property_holds(Random random) { ... }
 * }
 * }</pre>
 *
 * <p>It depends on the engine and nothing above it, so that every module's tests may use it: the
 * OpenAPI document is read from the test's class path ({@code /dev/quarry/api/openapi.yaml}, the
 * api module's resource), and helpers that speak a higher module's types stay in the tests of the
 * module that uses them ({@code GrantedScoresContract}, which both corpus stores answer, in
 * cluster-store's, the module that has both). The engine's own tests are compiled by the {@code
 * engine-tests} module, since the engine cannot depend on this one.
 */
package dev.quarry.testing;
