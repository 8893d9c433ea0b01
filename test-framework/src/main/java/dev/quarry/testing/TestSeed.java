package dev.quarry.testing;

import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Replayable randomness for tests, as Lucene's test framework has it: one seed per run, read from
 * {@code -Dtests.seed=<hex>} or chosen anew, and a failing test names the seed that replays it.
 *
 * <pre>{@code
 * @ExtendWith(TestSeed.class)
 * class SomeRandomizedTest {
 *   @Test
 *   void property_holds(Random random) { ... }
 * }
 * }</pre>
 *
 * <p>Each test method gets its own {@link Random}, derived from the run's seed and the test's name,
 * so running one test alone with the printed seed replays the same inputs. {@code mvn verify
 * -Dtests.seed=...} passes the property on to the test JVMs.
 */
public final class TestSeed implements ParameterResolver, TestExecutionExceptionHandler {
  /** The system property that replays a run. */
  public static final String PROPERTY = "tests.seed";

  private static final long SEED = chooseSeed();

  /** The run's seed: {@code -Dtests.seed} (hexadecimal) or a new random one. */
  public static long seed() {
    return SEED;
  }

  /** How to replay a run with this seed, for a failure message. */
  public static String replay() {
    return "-D" + PROPERTY + "=" + Long.toHexString(SEED).toUpperCase(Locale.ROOT);
  }

  /** A random source for one test: the run's seed mixed with the test's name. */
  public static Random random(String testName) {
    return new Random(SEED ^ (testName.hashCode() * 0x9E3779B97F4A7C15L));
  }

  private static long chooseSeed() {
    String given = System.getProperty(PROPERTY);
    if (given == null || given.isBlank()) {
      return ThreadLocalRandom.current().nextLong();
    }
    try {
      return Long.parseUnsignedLong(given.strip(), 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          PROPERTY + " is a hexadecimal seed such as 5EED; got '" + given + "'", e);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Random.class;
  }

  @Override
  public Random resolveParameter(ParameterContext parameter, ExtensionContext context) {
    String test = testName(context);
    System.out.println(test + " randomized with " + replay());
    return random(test);
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    String message = "replay " + testName(context) + " with " + replay();
    System.err.println(message);
    failure.addSuppressed(new Replay(message));
    throw failure;
  }

  private static String testName(ExtensionContext context) {
    return context.getRequiredTestClass().getName()
        + "#"
        + context.getRequiredTestMethod().getName();
  }

  /** Carries the replay line in a failure's report. */
  private static final class Replay extends RuntimeException {
    Replay(String message) {
      super(message, null, false, false);
    }
  }
}
