package dev.quarry.engine.embed;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs the work no one waits on as it runs (embedding passages, indexing, writing, merging) at the
 * lowest scheduling priority, nice 19, so that when every core is busy a search's own threads (its
 * query's model call above all) are the ones the scheduler runs. At nice 19 a thread gets about a
 * seventieth of a core that a thread at nice 0 also wants, and all of a core no one else wants:
 * ingestion runs as fast as before on cores searches leave idle.
 *
 * <p>Java's own thread priorities reach Linux only when the JVM is started with {@code
 * -XX:ThreadPriorityPolicy=1}, which warns at start when not run as root; so a background thread
 * sets its own nice value with {@code setpriority(2)} (on Linux a thread's own attribute), called
 * through the JDK's foreign function API. That needs Linux, Java 22 or later, and native access
 * granted to Quarry's code ({@code --enable-native-access}, as the {@code quarry} launcher does);
 * elsewhere nothing changes, and no warning is printed. Lowering one's own priority needs no
 * privilege; a lowered thread is never raised again. A thread that a lowered thread starts inherits
 * its nice value, so a background thread starts no thread that serves searches.
 *
 * <p>The API is called by reflection: Quarry compiles for Java 21, in which it is a preview.
 */
public final class BackgroundThreads {
  /** The nice value of background work: the lowest priority. */
  public static final int NICE = 19;

  private static final int PRIO_PROCESS = 0; // with who = 0: the calling thread, on Linux

  /** {@code int setpriority(int which, int who, int prio)}, or null where it is not called. */
  private static final MethodHandle SET_PRIORITY = setPriority();

  private BackgroundThreads() {}

  /** {@code work}, run as background work on whichever thread runs it. */
  public static Runnable lowering(Runnable work) {
    return () -> {
      lowerCurrentThread();
      work.run();
    };
  }

  /** Lowers the calling thread to background priority, where priorities are set. */
  public static void lowerCurrentThread() {
    if (SET_PRIORITY == null) {
      return;
    }
    try {
      SET_PRIORITY.invoke(PRIO_PROCESS, 0, NICE); // -1 on failure: the thread runs as it did
    } catch (Throwable e) {
      // the same: a thread that cannot be lowered runs as it did
    }
  }

  /** Whether background threads are lowered in this process. */
  public static boolean supported() {
    return SET_PRIORITY != null;
  }

  private static MethodHandle setPriority() {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
        || Runtime.version().feature() < 22) {
      return null;
    }
    try {
      Method nativeAccess = Module.class.getMethod("isNativeAccessEnabled");
      if (!(boolean) nativeAccess.invoke(BackgroundThreads.class.getModule())) {
        return null; // calling it would print the JDK's warning about restricted methods
      }
      Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
      Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
      Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
      Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
      Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
      Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
      Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
      Object libc = linkerClass.getMethod("defaultLookup").invoke(linker);
      Optional<?> symbol =
          (Optional<?>) lookupClass.getMethod("find", String.class).invoke(libc, "setpriority");
      if (symbol.isEmpty()) {
        return null;
      }
      Object javaInt =
          Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_INT").get(null);
      Object arguments = Array.newInstance(layoutClass, 3);
      for (int i = 0; i < 3; i++) {
        Array.set(arguments, i, javaInt);
      }
      Object descriptor =
          descriptorClass
              .getMethod("of", layoutClass, arguments.getClass())
              .invoke(null, javaInt, arguments);
      return (MethodHandle)
          linkerClass
              .getMethod(
                  "downcallHandle",
                  segmentClass,
                  descriptorClass,
                  Array.newInstance(optionClass, 0).getClass())
              .invoke(linker, symbol.get(), descriptor, Array.newInstance(optionClass, 0));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null; // an API that differs from Java 22's: priorities stay as they are
    }
  }
}
