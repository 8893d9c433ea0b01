package dev.quarry.benchmarks.contender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContenderKindTest {
  @TempDir Path dir;

  @Test
  void params_roundTrip() {
    for (ContenderKind kind : ContenderKind.values()) {
      assertEquals(kind, ContenderKind.fromParam(kind.param()));
    }
    assertEquals("quarry-http", ContenderKind.QUARRY_HTTP.param());
  }

  @Test
  void openSearch_withoutAUrl_isUnavailableAndDoesNotOpen() {
    String previous = System.clearProperty(ContenderKind.OPENSEARCH_URL_PROPERTY);
    try {
      assertEquals(true, ContenderKind.OPENSEARCH.unavailableReason().contains("--opensearch"));
      assertThrows(IllegalStateException.class, () -> ContenderKind.OPENSEARCH.open(dir));
    } finally {
      if (previous != null) {
        System.setProperty(ContenderKind.OPENSEARCH_URL_PROPERTY, previous);
      }
    }
  }
}
