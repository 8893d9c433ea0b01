package dev.quarry.openai.routes;

import dev.quarry.api.Authenticator;
import dev.quarry.api.ChecksBeforeBody;
import dev.quarry.api.routes.Authentication;
import dev.quarry.corpora.access.Access;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.UnaryOperator;

/**
 * One endpoint of this API: authentication (401), then the endpoint's work, every failure answered
 * by {@link OpenAiErrors}.
 */
public final class OpenAiHandler implements Handler, ChecksBeforeBody {
  /** An endpoint's work for an authenticated caller. */
  @FunctionalInterface
  interface Action {
    void run(Context ctx, Access access) throws Exception;
  }

  private final Authenticator authenticator;
  private final Backend backend;
  private final Action action;

  OpenAiHandler(Authenticator authenticator, Backend backend, Action action) {
    this.authenticator = authenticator;
    this.backend = backend;
    this.action = action;
  }

  @Override
  public void handle(Context ctx) {
    try {
      action.run(ctx, Authentication.authenticate(ctx, authenticator));
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      OpenAiErrors.write(ctx, t, backend.mapper());
    }
  }

  /**
   * Refused before the body when its token is missing or unknown, the check {@link #handle} makes
   * first.
   */
  @Override
  public boolean refusesBeforeBody(UnaryOperator<String> headers) {
    return Authentication.refuses(headers.apply("Authorization"), authenticator);
  }
}
