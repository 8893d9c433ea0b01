package dev.quarry.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.FileErrors;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the standalone server's tokens file:
 *
 * <pre>{@code
 * {"tokens": [{"subject": "app-1", "token": "...",
 *              "grants": [{"corpus": "handbook", "sources": ["policies/*"], "scopes": ["search", "index"]}]}]}
 * }</pre>
 *
 * Each token gives either {@code token} (the secret itself) or {@code tokenSha256} (its SHA-256 in
 * hex, so the file need not hold secrets). A malformed file is refused with a message naming the
 * offending entry, such as {@code tokens[2].grants[0].scopes[1]: unknown scope 'admin'}. A file
 * that other users may read or change is accepted with a warning: it holds secrets (or the hashes
 * that stand for them), but refusing it would turn a careless {@code chmod} into an outage.
 */
public final class TokensFile {
  private static final Logger LOG = LoggerFactory.getLogger(TokensFile.class);

  /**
   * Permissions that let users other than the file's owner read it or change who holds which grant.
   */
  private static final Set<PosixFilePermission> SHARED =
      EnumSet.of(
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.GROUP_WRITE);

  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");
  private static final int MAX_SECRET_CHARS = 4096;

  private TokensFile() {}

  /**
   * @throws IllegalArgumentException naming the file and the offending entry when it is malformed
   */
  public static TokenAuthenticator read(Path file) {
    byte[] bytes = readBytes(file);
    warnIfShared(file);
    try {
      return parse(bytes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("tokens file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The bytes of the tokens file {@code file}, at start-up and at each reload.
   *
   * @throws IllegalArgumentException naming the file and why it cannot be read
   */
  static byte[] readBytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the tokens file " + file + ": " + FileErrors.whyUnreadable(file, e), e);
    }
  }

  /** Logs a warning when users other than the owner may read the file, or others may change it. */
  static void warnIfShared(Path file) {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException | IOException e) {
      return; // not a POSIX file system: nothing this check can say
    }
    if (permissions.stream().anyMatch(SHARED::contains)) {
      LOG.warn(
          "the tokens file {} can be read or changed by other users (mode {}); it holds secrets: "
              + "chmod 600 it",
          file,
          PosixFilePermissions.toString(permissions));
    }
  }

  /** Parses the file's content; errors name the entry ({@code tokens[0].grants[1].corpus: ...}). */
  public static TokenAuthenticator parse(byte[] json) {
    try {
      WireObject root = WireObject.root(new StrictJson().parseObject(json));
      root.allowOnly(Set.of("tokens"));
      List<JsonNode> items = root.optionalArray("tokens", 100_000);
      if (items == null) {
        throw root.missing("tokens");
      }
      List<TokenAuthenticator.Entry> entries = new ArrayList<>(items.size());
      Set<String> hashes = new HashSet<>();
      for (int i = 0; i < items.size(); i++) {
        TokenAuthenticator.Entry entry = entry(WireObject.at(items.get(i), "tokens[" + i + "]"));
        if (!hashes.add(HexFormat.of().formatHex(entry.sha256()))) {
          throw QuarryException.invalid("tokens[" + i + "]", "the same token appears twice");
        }
        entries.add(entry);
      }
      return new TokenAuthenticator(entries);
    } catch (QuarryException e) {
      String message = e.getMessage();
      String field = e.field();
      throw new IllegalArgumentException(
          field == null || message.startsWith(field) ? message : field + ": " + message);
    }
  }

  private static TokenAuthenticator.Entry entry(WireObject t) {
    t.allowOnly(Set.of("subject", "token", "tokenSha256", "grants"));
    String subject = t.requireString("subject");
    if (subject.isBlank() || subject.length() > 256) {
      throw QuarryException.invalid(t.pathOf("subject"), "subject must be 1 to 256 characters");
    }
    String token = t.optionalString("token", MAX_SECRET_CHARS);
    String hash = t.optionalString("tokenSha256");
    if ((token == null) == (hash == null)) {
      throw QuarryException.invalid(t.path(), "give exactly one of token and tokenSha256");
    }
    byte[] sha;
    if (token != null) {
      if (token.isBlank() || !token.equals(token.strip())) {
        throw QuarryException.invalid(
            t.pathOf("token"), "a token must be non-empty, without surrounding spaces");
      }
      sha = sha256(token);
    } else {
      if (!SHA256_HEX.matcher(hash).matches()) {
        throw QuarryException.invalid(t.pathOf("tokenSha256"), "tokenSha256 must be 64 hex digits");
      }
      sha = HexFormat.of().parseHex(hash.toLowerCase(Locale.ROOT));
    }
    List<JsonNode> grantNodes = t.optionalArray("grants", 10_000);
    if (grantNodes == null) {
      throw t.missing("grants");
    }
    List<Grant> grants = new ArrayList<>(grantNodes.size());
    for (int g = 0; g < grantNodes.size(); g++) {
      grants.add(grant(WireObject.at(grantNodes.get(g), t.pathOf("grants") + "[" + g + "]")));
    }
    return new TokenAuthenticator.Entry(sha, new Access(subject, grants));
  }

  private static Grant grant(WireObject g) {
    g.allowOnly(Set.of("corpus", "sources", "scopes"));
    String corpus = g.requireString("corpus");
    if (corpus.isEmpty() || corpus.length() > 65) {
      throw QuarryException.invalid(
          g.pathOf("corpus"), "corpus must be a corpus name or a prefix ending in *");
    }
    List<String> sources = g.optionalStringList("sources", Grant.MAX_SOURCES, 513);
    if (sources != null && sources.isEmpty()) {
      // "No sources" grants nothing; reading it as every source would grant the opposite.
      throw QuarryException.invalid(
          g.pathOf("sources"),
          "an empty sources list grants no source; omit sources "
              + "for every source of the corpus, or name the sources (ids or prefixes ending in *)");
    }
    List<String> scopeNames = g.optionalStringList("scopes", 3, 32);
    if (scopeNames == null) {
      throw g.missing("scopes");
    }
    if (scopeNames.isEmpty()) {
      throw QuarryException.invalid(
          g.pathOf("scopes"), "a grant needs at least one scope (search, index, manage)");
    }
    EnumSet<Scope> scopes = EnumSet.noneOf(Scope.class);
    for (int s = 0; s < scopeNames.size(); s++) {
      Scope scope = Scope.fromWireName(scopeNames.get(s));
      if (scope == null) {
        throw QuarryException.invalid(
            g.pathOf("scopes") + "[" + s + "]",
            "unknown scope '" + scopeNames.get(s) + "' (known: search, index, manage)");
      }
      scopes.add(scope);
    }
    return new Grant(corpus, sources, scopes);
  }

  static byte[] sha256(String token) {
    return Sha256.newDigest().digest(token.getBytes(StandardCharsets.UTF_8));
  }
}
