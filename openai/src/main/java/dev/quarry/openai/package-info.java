/**
 * OpenAI's vector stores and files API over Quarry, so application code written against the
 * official OpenAI SDKs' file search calls (their {@code baseURL} pointed at {@code /openai/v1})
 * runs on Quarry: {@link OpenAiPlugin}, a Javalin plugin a host registers beside {@code
 * QuarryPlugin}, with the same corpora, ingestion jobs and authenticator.
 *
 * <pre>{@code
 * OpenAiPlugin openai = new OpenAiPlugin(c -> c.corpora(corpora).jobs(jobs).authenticator(tokens)
 *     .folder(dataDir.resolve("openai")));
 * Javalin app = Javalin.create(config -> { config.registerPlugin(quarry); config.registerPlugin(openai); });
 * }</pre>
 *
 * <p>A vector store is a corpus, an attached file a source ingested by an ingestion job; uploaded
 * files and the stores' records are kept in a folder of the data folder. How each endpoint and
 * field maps onto corpora, sources and jobs: docs/openai-compatibility.md. The handlers are in
 * {@code openai.routes}, the records kept beside the corpora in {@code openai.store}. It must not
 * call the server over HTTP: it calls corpora as the plugin does.
 */
package dev.quarry.openai;
