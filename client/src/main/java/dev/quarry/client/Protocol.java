package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/protocol}: the selected wire version, the features switched on and every limit.
 *
 * @quarry.stable
 */
public record Protocol(
    String version,
    List<String> supportedVersions,
    List<String> features,
    Map<String, Long> limits) {
  public boolean hasFeature(String feature) {
    return features != null && features.contains(feature);
  }

  /** A limit by its wire name ({@code maxTopK}), or null when the server does not advertise it. */
  public Long limit(String name) {
    return limits == null ? null : limits.get(name);
  }
}
