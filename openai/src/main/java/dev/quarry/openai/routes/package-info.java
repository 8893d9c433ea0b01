/**
 * OpenAI's vector stores and files endpoints below {@code /openai/v1}: each handler authenticates
 * the caller with Quarry's bearer tokens, reads the request strictly ({@link Params}: an unknown
 * field is a 400 naming it), calls corpora and the ingestion jobs, and answers in OpenAI's shapes;
 * every failure is answered once, by {@link OpenAiErrors}, in OpenAI's error body.
 *
 * <p>It must not speak Quarry's own wire (that is {@code api}'s) nor call the server over HTTP.
 */
package dev.quarry.openai.routes;
