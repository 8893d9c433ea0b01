/**
 * A Java client of a Quarry server: every endpoint of the retrieval contract over HTTP, with
 * nothing of Quarry's on its class path (the JDK's HTTP client and Jackson).
 *
 * <p>Entry type: {@link dev.quarry.client.QuarryClient}. The common calls:
 *
 * <pre>{@code
 * QuarryClient quarry = QuarryClient.builder("http://127.0.0.1:8080").token("change-me").build();
 * SearchResult hits = quarry.search("handbook", "parental leave");
 * }</pre>
 *
 * <p>The request records are the client's strict writer; the answer records are filled by its
 * tolerant reader. A server's refusal is an {@link dev.quarry.client.ApiException} with the
 * server's error code; an answer lost on the way a {@link dev.quarry.client.TransportException}; an
 * answer this client cannot read a {@link dev.quarry.client.ProtocolException}. {@link
 * dev.quarry.client.SafeRetry} makes index and delete exactly-once by reconciling through {@code
 * sources/read}. {@code Transport} is the one place requests go out and answers come in (the
 * version header and check, the error envelope). The guide, with a complete example:
 * docs/client.md.
 */
package dev.quarry.client;
