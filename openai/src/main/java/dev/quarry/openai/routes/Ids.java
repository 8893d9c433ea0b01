package dev.quarry.openai.routes;

import java.security.SecureRandom;
import java.util.regex.Pattern;

/**
 * OpenAI-style ids: {@code vs_...} for a vector store created here (its corpus's name: any corpus
 * name is a vector store id), {@code file-...} for an uploaded file (and the source its text
 * becomes), {@code vsfb_...} for a file batch (its ingestion job's id after the prefix).
 */
final class Ids {
  static final String STORE_PREFIX = "vs_";
  static final String FILE_PREFIX = "file-";
  static final String BATCH_PREFIX = "vsfb_";
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
  private static final int RANDOM_CHARS = 24;

  /** Also what keeps a client's id from naming anything but a file of the files area. */
  private static final Pattern FILE = Pattern.compile("file-[a-z0-9]{1,64}");

  private static final SecureRandom RANDOM = new SecureRandom();

  private Ids() {}

  static String newStore() {
    return STORE_PREFIX + random();
  }

  static String newFile() {
    return FILE_PREFIX + random();
  }

  static boolean isFile(String id) {
    return id != null && FILE.matcher(id).matches();
  }

  static String batch(String jobId) {
    return BATCH_PREFIX + jobId;
  }

  /** The job of batch {@code id}, or null when {@code id} is no batch id. */
  static String jobOf(String id) {
    return id != null && id.startsWith(BATCH_PREFIX) && id.length() > BATCH_PREFIX.length()
        ? id.substring(BATCH_PREFIX.length())
        : null;
  }

  private static String random() {
    StringBuilder out = new StringBuilder(RANDOM_CHARS);
    for (int i = 0; i < RANDOM_CHARS; i++) {
      out.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return out.toString();
  }
}
