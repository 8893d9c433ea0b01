package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.Authentication;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /v1/agui/capabilities}: what the AG-UI retrieval agent does, in AG-UI's
 * {@code AgentCapabilities} shape ({@code agui-capabilities.json}, beside this class). It declares
 * only what is honoured (its own search tool, streaming over both HTTP bindings) and says
 * {@code false} explicitly where an interface would otherwise offer something that is not there
 * (reasoning, state, application tools, interrupts, multimodal input). Any valid token may read it.
 */
public final class AguiCapabilities implements Handler {
  public static final String PATH = "/v1/agui/capabilities";
  private static final String RESOURCE = "agui-capabilities.json";

  private final Authenticator authenticator;
  private final ObjectMapper mapper;
  private final ObjectNode capabilities;

  public AguiCapabilities(Authenticator authenticator, ObjectMapper mapper) {
    this.authenticator = authenticator;
    this.mapper = mapper;
    try (InputStream in = AguiCapabilities.class.getResourceAsStream(RESOURCE)) {
      capabilities = (ObjectNode) mapper.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assert capabilities.at("/tools/items/0/name").asText().equals(AguiEvents.TOOL_NAME)
        : "the declared tool is the one the runs call";
  }

  @Override
  public void handle(Context ctx) {
    try {
      ProtocolHeaders.checkRequestedVersion(ctx.header(ProtocolHeaders.VERSION_HEADER));
      Authentication.authenticate(ctx, authenticator);
      Responses.write(ctx, 200, capabilities.deepCopy(), mapper);
    } catch (QuarryException e) {
      ErrorResponses.write(ctx, e, mapper);
    }
  }
}
