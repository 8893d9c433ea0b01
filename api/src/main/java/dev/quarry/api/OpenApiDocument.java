package dev.quarry.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OpenAPI 3.1 description of the wire ({@code openapi.yaml}, shipped in this jar), which the
 * standalone server serves at {@link #PATH} and a host embedding the plugin may serve too. Users of
 * other languages generate their clients from it; the project's tests hold every answer to it.
 *
 * @quarry.stable
 */
public final class OpenApiDocument {
  /** Where the standalone server serves the document. */
  public static final String PATH = "/v1/openapi.yaml";

  /** The registered media type of YAML (RFC 9512). */
  public static final String MEDIA_TYPE = "application/yaml";

  private static final String RESOURCE = "/dev/quarry/api/openapi.yaml";
  private static final byte[] BYTES = load();

  private OpenApiDocument() {}

  /** The document's UTF-8 bytes (a copy). */
  public static byte[] bytes() {
    return BYTES.clone();
  }

  private static byte[] load() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the quarry-api jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
