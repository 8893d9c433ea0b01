package dev.quarry.app.server;

import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.Endpoint;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.app.backup.BackupManifest;
import dev.quarry.app.backup.Backups;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code POST /v1/admin/backup} {@code {"name", "corpora"?}}: backs up the whole data folder (or
 * only the corpora named) into the server's {@code backup.directory} and answers the backup's
 * manifest once it is complete. Needs a token with {@code manage} on every corpus (a grant on
 * {@code *}), whichever corpora it names. Without {@code backup.directory} the endpoint is off: 404
 * NOT_FOUND, after authentication. Not held to the capacity gate (a backup takes no search or
 * mutation place); {@link Backups} runs one at a time.
 */
final class BackupEndpoint extends Endpoint {
  static final String PATH = "/v1/admin/backup";

  /**
   * Longer than any corpus name, so that a long one is refused by the name rule, naming the rule.
   */
  private static final int MAX_NAME_CHARS = 256;

  private final Backups backups;

  /**
   * @param backups where backups go, or null when they are off
   */
  BackupEndpoint(Authenticator tokens, Limits limits, StrictJson json, Backups backups) {
    super(tokens, Set.of(), null, null, limits, json);
    this.backups = backups;
  }

  @Override
  protected void checkBeforeBody(UnaryOperator<String> headers) {
    if (backups == null) {
      throw new QuarryException(
          ErrorCode.NOT_FOUND, "backups are off: set backup.directory in the config file");
    }
    super.checkBeforeBody(headers);
  }

  @Override
  protected Work prepare(Context ctx, Access access) {
    byte[] body = readBody(ctx);
    return c -> {
      WireObject request = WireObject.root(json.parseObject(body));
      request.allowOnly(Set.of("name", "corpora"));
      String name = request.requireString("name");
      // At most one list page of names: as many as corpora/list answers at once.
      List<String> only =
          request.optionalStringList(
              "corpora", (int) limits.get(Limit.MAX_LIST_LIMIT), MAX_NAME_CHARS);
      BackupManifest manifest = backups.create(access, name, only);
      Responses.write(c, 200, manifest.toJson(), json.mapper());
    };
  }
}
