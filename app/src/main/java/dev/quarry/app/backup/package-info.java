/**
 * Backups of a data folder and their restore.
 *
 * <p>{@link dev.quarry.app.backup.Backups} writes a backup from a running server: every corpus at
 * one revision (Lucene's commit held while its files are copied, so writes go on), the data
 * folder's other entries as files (or only corpora named by the caller, and nothing else), and a
 * manifest, {@code quarry-backup.json}, that lists the corpora held and every file with its size
 * and SHA-256 ({@link dev.quarry.app.backup.BackupContents}), written last; the backup appears
 * under its name only once complete. A backup folder has the data folder's own layout, so {@link
 * dev.quarry.app.backup.Restore} checks the folder against its manifest ({@link
 * dev.quarry.app.backup.BackupCheck}), copies it into an empty data folder and checks every corpus
 * opens at the revision the manifest names.
 *
 * <p>Knows nothing of HTTP: the server's endpoint and the command line call into it.
 */
package dev.quarry.app.backup;
