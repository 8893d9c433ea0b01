package dev.quarry.api;

import java.util.function.UnaryOperator;

/**
 * A handler that reads a request's body only after checks that need its headers alone. A host that
 * collects bodies before handling requests (the standalone server does, so a slow client holds no
 * thread) asks it first: a request it will refuse from its headers is handed on at once, and its
 * connection closed after the answer, instead of waiting for a body nobody reads; any other request
 * has its body collected and keeps its connection.
 *
 * <p>Every handler of a route that reads a body implements it: {@code Endpoint}, OpenAI's API, the
 * MCP endpoint. A host treats a handler that does not as one that reads no body.
 *
 * @quarry.stable
 */
public interface ChecksBeforeBody {
  /**
   * Whether a request with these headers is refused before its body is read, by the same checks the
   * handler makes first when it handles the request.
   *
   * @param headers the request's header of each name, or null
   */
  boolean refusesBeforeBody(UnaryOperator<String> headers);
}
