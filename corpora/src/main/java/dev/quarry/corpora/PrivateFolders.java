package dev.quarry.corpora;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Folders that only their owner may enter: the data folder and the folders Quarry makes in it, the
 * backup folder and each backup. They hold every corpus's text, and the server's tokens file is
 * kept to its owner for the same reason, so a folder the server creates is {@code rwx------} where
 * the file system has POSIX permissions; files inside need no mode of their own, since no one else
 * can reach them. An existing folder keeps the mode its owner gave it.
 *
 * @quarry.internal
 */
public final class PrivateFolders {
  /** Owner only: read, write, enter. */
  public static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  private PrivateFolders() {}

  /**
   * {@link Files#createDirectories}, with every folder it creates (missing parents included) {@link
   * #OWNER_ONLY} where the file system supports POSIX permissions.
   *
   * @return {@code dir}
   */
  public static Path create(Path dir) throws IOException {
    return Files.createDirectories(dir, ownerOnly(dir.getFileSystem()));
  }

  /**
   * {@link Files#createDirectory}, owner only as {@link #create}: fails when {@code dir} exists.
   */
  public static Path createOne(Path dir) throws IOException {
    return Files.createDirectory(dir, ownerOnly(dir.getFileSystem()));
  }

  private static FileAttribute<?>[] ownerOnly(FileSystem fs) {
    // The umask only removes bits, and rwx------ keeps none it would remove.
    return fs.supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
        : new FileAttribute<?>[0];
  }
}
