package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.Endpoint;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.access.Access;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code GET /v1/agui/capabilities}: what the AG-UI retrieval agent does, in AG-UI's {@code
 * AgentCapabilities} shape ({@code agui-capabilities.json}, beside this class). It declares only
 * what is honoured (its own search tool, streaming over both HTTP bindings) and says {@code false}
 * explicitly where an interface would otherwise offer something that is not there (reasoning,
 * state, application tools, interrupts, multimodal input). Any valid token may read it, after the
 * {@link Endpoint} pipeline's version and authentication checks.
 */
public final class AguiCapabilities extends Endpoint {
  public static final String PATH = "/v1/agui/capabilities";
  private static final String RESOURCE = "agui-capabilities.json";

  private final ObjectNode capabilities;

  public AguiCapabilities(Authenticator authenticator, Limits limits, StrictJson json) {
    // Of no feature (a client reads it to learn what is there) and not gated: a fixed document.
    super(authenticator, Set.of(), null, null, limits, json);
    try (InputStream in = AguiCapabilities.class.getResourceAsStream(RESOURCE)) {
      capabilities = (ObjectNode) json.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assert capabilities.at("/tools/items/0/name").asText().equals(AguiEvents.TOOL_NAME)
        : "the declared tool is the one the runs call";
  }

  @Override
  protected void checkBeforeBody(UnaryOperator<String> headers) {
    // a GET that reads no body: any Content-Type will do
  }

  @Override
  protected Work prepare(Context ctx, Access access) {
    return c -> Responses.write(c, 200, capabilities.deepCopy(), json.mapper());
  }
}
