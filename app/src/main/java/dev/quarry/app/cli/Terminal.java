package dev.quarry.app.cli;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * Whether this process talks to a person at a terminal, which decides between a redrawn progress
 * bar and highlights in bold, and plain lines fit for a pipe or a log file. {@code
 * QUARRY_TERMINAL=0} or {@code 1} overrides the guess; {@code NO_COLOR} turns bold off.
 */
final class Terminal {
  private Terminal() {}

  static boolean interactive() {
    String forced = System.getenv("QUARRY_TERMINAL");
    if (forced != null && !forced.isBlank()) {
      return !forced.equals("0");
    }
    Console console = System.console();
    if (console == null) {
      return false;
    }
    // From JDK 22 on, System.console() may exist without a terminal; Console.isTerminal() tells.
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (ReflectiveOperationException olderJdk) {
      return true; // JDK 21: a console exists only when stdin and stdout are a terminal
    }
  }

  /** Bold through ANSI escapes: only on a terminal, and not when NO_COLOR is set. */
  static boolean bold() {
    return interactive() && System.getenv("NO_COLOR") == null;
  }
}
