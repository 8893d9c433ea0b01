package dev.quarry.corpora;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Why a file the server reads at startup (tokens, config, a cluster's CA or password file) could
 * not be read, in the words an operator knows from the shell: "permission denied", "no such file",
 * "is a directory". The JDK's own message for the first two is only the path again.
 *
 * @quarry.internal
 */
public final class FileErrors {
  private FileErrors() {}

  /** The reason {@code file} could not be read, given the exception reading it threw. */
  public static String whyUnreadable(Path file, IOException e) {
    if (!(e instanceof FileSystemException) && Files.isDirectory(file)) {
      return "is a directory"; // reading a folder's bytes fails with a plain IOException
    }
    return why(e);
  }

  /** The reason a file or folder operation failed, given the exception it threw. */
  public static String why(IOException e) {
    if (e instanceof AccessDeniedException) {
      // In a container the uid is what the operator must give the file to.
      return "permission denied" + processUser();
    }
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof FileAlreadyExistsException) {
      return e.getMessage() + " exists and is not a folder";
    }
    if (e instanceof NotDirectoryException) {
      return "a folder on its path is a file";
    }
    String reason = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
    if (reason == null || reason.isBlank()) {
      return "an I/O error (" + e.getClass().getSimpleName() + ")";
    }
    return reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
  }

  /** " (the server runs as uid N)", or nothing where the platform does not say. */
  private static String processUser() {
    try {
      Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return " (the server runs as uid " + uid + ")";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
