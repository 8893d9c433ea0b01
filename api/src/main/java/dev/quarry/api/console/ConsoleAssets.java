package dev.quarry.api.console;

import dev.quarry.engine.Sha256;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Serves the console's files from the class path ({@code dev/quarry/api/console/...}, in this jar)
 * below {@link #PREFIX}. The standalone server mounts it and sends a browser that opens its root
 * there ({@link #redirect}); a host that embeds the plugin mounts it with {@code
 * QuarryPluginConfig.console(true)}.
 *
 * <p>Every console answer carries a Content-Security-Policy that allows only this origin's own
 * scripts, styles and API ({@code connect-src 'self'}), no inline script or style, no framing, and
 * requires Trusted Types, so a value from the index can never become markup even through a
 * programming slip: the browser refuses string assignments to {@code innerHTML} and friends.
 *
 * <p>Files are read once and kept (they are a few tens of KiB); thread-safe.
 */
public final class ConsoleAssets {
  /** Where the console lives on the server. */
  public static final String PREFIX = "/console/";

  /** The policy of every console page: only this origin's own files and API, nothing inline. */
  public static final String CONTENT_SECURITY_POLICY =
      String.join(
          "; ",
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          "img-src 'self' data:",
          "connect-src 'self'",
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'none'",
          "require-trusted-types-for 'script'",
          "trusted-types 'none'");

  /** File names the console may have: lower-case words, one level of folders, a known extension. */
  private static final Pattern ASSET_NAME =
      Pattern.compile("(?:[a-z0-9][a-z0-9-]*/)?[a-z0-9][a-z0-9.-]*\\.(html|css|js|svg|png|ico)");

  private static final Map<String, String> CONTENT_TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "svg", "image/svg+xml",
          "png", "image/png",
          "ico", "image/x-icon");

  private final String resourceRoot;

  /**
   * The files found so far; a name that is not a file is not kept, so requests for made-up names
   * cost no memory.
   */
  private final Map<String, Asset> cache = new ConcurrentHashMap<>();

  private record Asset(byte[] bytes, String contentType, String etag) {}

  /** The console shipped in this jar, under {@code dev/quarry/api/console/} on the class path. */
  public ConsoleAssets() {
    this("dev/quarry/api/console/");
  }

  ConsoleAssets(String resourceRoot) {
    this.resourceRoot = resourceRoot;
  }

  /**
   * Adds {@code GET /console} and {@code GET /console/*}; a server that gives its root to the
   * console adds {@code GET /} with {@link #redirect} itself.
   */
  public void mount(RoutesConfig routes) {
    // Javalin ignores trailing slashes: "/console" answers "/console/" too, and serve() sends
    // the bare "/console" to "/console/".
    routes.get(PREFIX.substring(0, PREFIX.length() - 1), this::serve);
    routes.get(PREFIX + "*", this::serve);
  }

  /** A redirect to the console: for a server's root, and for the bare {@code /console}. */
  public static void redirect(Context ctx) {
    ctx.status(302);
    ctx.header("Location", PREFIX);
    ctx.header("Cache-Control", "no-store");
  }

  /**
   * Answers one file, or leaves the context untouched (a 404, which the server turns into the error
   * envelope) when there is no such file.
   */
  private void serve(Context ctx) {
    if (!ctx.path().startsWith(PREFIX)) {
      // "/console": the page's relative links need the trailing slash.
      redirect(ctx);
      return;
    }
    String name = ctx.path().substring(PREFIX.length());
    if (name.isEmpty()) {
      name = "index.html";
    }
    Asset a = ASSET_NAME.matcher(name).matches() ? cache.computeIfAbsent(name, this::load) : null;
    if (a == null) {
      ctx.status(404);
      return;
    }
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cross-Origin-Opener-Policy", "same-origin");
    // Revalidated on every load, so a new server version never runs a stale script.
    ctx.header("Cache-Control", "no-cache");
    ctx.header("ETag", a.etag());
    if (a.etag().equals(ctx.header("If-None-Match"))) {
      ctx.status(304);
      return;
    }
    ctx.contentType(a.contentType());
    ctx.result(a.bytes());
  }

  /**
   * The file {@code name}, or null when the console has none (computeIfAbsent then stores nothing).
   */
  private Asset load(String name) {
    try (InputStream in =
        ConsoleAssets.class.getClassLoader().getResourceAsStream(resourceRoot + name)) {
      if (in == null) {
        return null;
      }
      byte[] bytes = in.readAllBytes();
      String extension = name.substring(name.lastIndexOf('.') + 1);
      return new Asset(bytes, CONTENT_TYPES.get(extension), etag(bytes));
    } catch (IOException e) {
      throw new UncheckedIOException("the console file " + name + " cannot be read", e);
    }
  }

  private static String etag(byte[] bytes) {
    return "\"" + HexFormat.of().formatHex(Sha256.newDigest().digest(bytes), 0, 16) + "\"";
  }
}
