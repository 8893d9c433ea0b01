package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.quarry.api.routes.ErrorResponses;
import java.util.function.Supplier;

/**
 * The tests' one check that an answer is written for clients: it names none of Java's or libraries'
 * insides, by the same test the error writer applies to every message ({@link
 * ErrorResponses#namesInternals}), here to the whole answer, quoted values included.
 */
final class ClientText {
  private ClientText() {}

  /**
   * Fails when {@code answer} names Java's or libraries' insides; {@code shown} says what was sent.
   */
  static void assertNoInternals(String answer, Supplier<String> shown) {
    assertFalse(ErrorResponses.namesInternals(answer), () -> shown.get() + " -> " + answer);
  }
}
