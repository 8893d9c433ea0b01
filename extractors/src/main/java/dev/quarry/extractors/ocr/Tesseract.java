package dev.quarry.extractors.ocr;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs the {@code tesseract} command on one image file, in its own process, and reads back its
 * words with their confidences (Tesseract's TSV output).
 *
 * <p>Each run is bounded: it is killed when its time is up, and where the system has them it runs
 * under {@code timeout -s KILL} (so it dies on time even if the worker that started it was killed
 * first) and {@code prlimit --as} (so a hostile image cannot take the machine's memory). It uses
 * one thread: extraction workers are the unit of parallelism.
 *
 * <p>Thread safe; holds only the command's location.
 */
public final class Tesseract {

  /**
   * The language data Debian's {@code tesseract-ocr-eng} installs: what recognition reads by
   * default.
   */
  public static final String LANGUAGE = "eng";

  /** A name of Tesseract language data ({@code deu}, {@code chi_sim}, {@code script/Latin}). */
  private static final Pattern LANGUAGE_NAME =
      Pattern.compile("[a-z][a-z_]{1,15}|script/[A-Za-z_]{2,30}");

  /** The orientation and script data Debian's {@code tesseract-ocr-osd} installs. */
  public static final String ORIENTATION_DATA = "osd";

  /** Address space one recognition may use; a 300 dpi page needs a few hundred MiB. */
  static final long MAX_ADDRESS_SPACE_BYTES = 2L << 30;

  /** Automatic page segmentation with orientation and script detection. */
  static final String PAGE_SEGMENTATION = "1";

  /** Automatic page segmentation of a page taken to lie upright. */
  static final String UPRIGHT_PAGE_SEGMENTATION = "3";

  private static final Path TIMEOUT = Path.of("/usr/bin/timeout");
  private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");

  private final String command;

  /** Whether each page's orientation is detected and turned upright before it is read. */
  private final boolean detectOrientation;

  /** The language data recognition reads with, in order ({@code -l deu+eng}). */
  private final List<String> languages;

  private Tesseract(String command, boolean detectOrientation, List<String> languages) {
    this.command = command;
    this.detectOrientation = detectOrientation;
    this.languages = List.copyOf(languages);
  }

  /** The {@code tesseract} on the PATH, whether or not it is installed, detecting orientation. */
  public static Tesseract onPath() {
    return new Tesseract("tesseract", true, List.of(LANGUAGE));
  }

  /**
   * The tesseract at {@code command} (a path or a name looked up on the PATH), detecting
   * orientation.
   */
  public static Tesseract at(String command) {
    return new Tesseract(Objects.requireNonNull(command, "command"), true, List.of(LANGUAGE));
  }

  /**
   * This tesseract, detecting each page's orientation first ({@code true}, the default), or reading
   * every page as it lies ({@code false}): for collections known to be scanned upright, which saves
   * the detection's cost on every page (about 0.2 to 0.5 CPU-seconds) and leaves a turned page
   * misread.
   */
  public Tesseract detectingOrientation(boolean detect) {
    return detect == detectOrientation ? this : new Tesseract(command, detect, languages);
  }

  /**
   * This tesseract reading with {@code data} (Tesseract's language data names, such as {@code deu}
   * from Debian's {@code tesseract-ocr-deu}), in order of preference; default {@value #LANGUAGE}.
   *
   * @throws IllegalArgumentException when the list is empty or a name is not a language data name
   */
  public Tesseract withLanguages(List<String> data) {
    checkLanguages(data);
    return data.equals(languages) ? this : new Tesseract(command, detectOrientation, data);
  }

  /**
   * Refuses an empty list or a name that cannot be Tesseract language data.
   *
   * @throws IllegalArgumentException naming the first bad name
   */
  public static void checkLanguages(List<String> data) {
    if (data == null || data.isEmpty()) {
      throw new IllegalArgumentException("at least one OCR language is needed");
    }
    for (String d : data) {
      if (d == null || !LANGUAGE_NAME.matcher(d).matches()) {
        throw new IllegalArgumentException(
            "'"
                + d
                + "' is not a Tesseract language data name (such as eng, deu, "
                + "fra, chi_sim)");
      }
    }
  }

  /**
   * The names in {@code data} whose language data this tesseract lacks (all of them when it does
   * not run), asked within a few seconds; empty when it has every one.
   */
  public List<String> missingLanguages(List<String> data) {
    List<String> installed = installedData();
    return data.stream().filter(d -> !installed.contains(d)).toList();
  }

  /**
   * Whether this tesseract runs and has the English language data: asks it for its languages,
   * within a few seconds.
   */
  public boolean available() {
    return hasData(LANGUAGE);
  }

  /**
   * Whether this tesseract has the orientation data ({@value #ORIENTATION_DATA}) that turns pages
   * scanned sideways or upside down upright; without it they are read as they lie.
   */
  public boolean detectsOrientation() {
    return hasData(ORIENTATION_DATA);
  }

  /** Whether {@code tesseract --list-langs} names {@code data}, asked within a few seconds. */
  private boolean hasData(String data) {
    return installedData().contains(data);
  }

  /**
   * What {@code tesseract --list-langs} names, asked within a few seconds; empty when it does not
   * run.
   */
  public List<String> installedData() {
    try {
      Process process =
          new ProcessBuilder(command, "--list-langs").redirectErrorStream(true).start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readNBytes(64 << 10);
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return List.of();
      }
      if (process.exitValue() != 0) {
        return List.of();
      }
      return new String(out, StandardCharsets.UTF_8).lines().map(String::strip).toList();
    } catch (IOException e) {
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
  }

  /**
   * Recognises the text of {@code image} (PNG, JPEG, TIFF with all its frames, WebP, ...), each
   * frame turned upright first when its text lies turned by a quarter, half or three quarters
   * (unless {@linkplain #detectingOrientation(boolean) orientation detection} is off).
   *
   * @param budget how long it may take; past it the process is killed and extraction fails
   * @throws ExtractionException {@code EXTRACTION_FAILED} when tesseract cannot read the image,
   *     fails, or runs out of time
   */
  public TesseractTsv.Recognition recognize(Path image, Duration budget)
      throws ExtractionException {
    long millis = budget.toMillis();
    if (millis <= 0) {
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          "No time was left within the extraction deadline to recognise the text of an image.");
    }
    Path out = null;
    Path err = null;
    Process process = null;
    try {
      out = Files.createTempFile("quarry-ocr-", ".tsv");
      err = Files.createTempFile("quarry-ocr-", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(commandLine(image, millis))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      // One thread per recognition: the workers are the parallelism, the cores are shared.
      builder.environment().put("OMP_THREAD_LIMIT", "1");
      process = builder.start();
      process.getOutputStream().close();
      if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
        throw new ExtractionException(
            Failure.EXTRACTION_FAILED,
            "Recognising the text of an image took longer than the extraction deadline allows.");
      }
      if (process.exitValue() != 0) {
        throw new ExtractionException(
            Failure.EXTRACTION_FAILED,
            "Optical character recognition could not read the image.",
            "tesseract: " + firstLine(err, process.exitValue()));
      }
      return TesseractTsv.parse(Files.readString(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          "Optical character recognition could not be run.",
          ExtractionException.describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "Recognition was interrupted.");
    } finally {
      if (process != null && process.isAlive()) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  private List<String> commandLine(Path image, long millis) {
    List<String> line = new ArrayList<>();
    if (Files.isExecutable(TIMEOUT)) {
      // Outlives a killed worker and still ends tesseract on time.
      line.addAll(List.of(TIMEOUT.toString(), "-s", "KILL", (millis + 999) / 1000 + "s"));
    }
    if (Files.isExecutable(PRLIMIT)) {
      line.addAll(List.of(PRLIMIT.toString(), "--as=" + MAX_ADDRESS_SPACE_BYTES, "--"));
    }
    // Page segmentation mode 1 is mode 3 (automatic layout) after orientation detection: a page
    // scanned turned 90, 180 or 270 degrees is turned upright inside this same bounded process,
    // whatever the image format and for each frame of a TIFF. It needs the orientation data
    // (osd.traineddata); without it tesseract says so on stderr and reads the page as it lies.
    // Mode 3 alone reads every page as it lies, without the detection's cost.
    line.addAll(
        List.of(
            command,
            image.toString(),
            "stdout",
            "-l",
            String.join("+", languages),
            "--psm",
            detectOrientation ? PAGE_SEGMENTATION : UPRIGHT_PAGE_SEGMENTATION,
            "tsv"));
    return line;
  }

  private static String firstLine(Path err, int exitValue) {
    try {
      String text = Files.readString(err, StandardCharsets.UTF_8).strip();
      String line = text.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
      if (line.isEmpty()) {
        return "exit status " + exitValue;
      }
      return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    } catch (IOException | RuntimeException e) {
      return "exit status " + exitValue;
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a temporary file; the system's cleaner takes it
      }
    }
  }

  @Override
  public String toString() {
    return "Tesseract[" + command + (detectOrientation ? "" : ", upright pages") + "]";
  }
}
