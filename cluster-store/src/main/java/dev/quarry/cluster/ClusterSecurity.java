package dev.quarry.cluster;

import dev.quarry.corpora.FileErrors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the store proves itself to the cluster and checks the cluster: HTTP basic credentials (the
 * password read from a file, never written in the config) and, for {@code https} nodes, the
 * certificate authorities to trust (a PEM file) instead of the JDK's. Its {@link #toString} never
 * shows the password.
 *
 * @param username the cluster user; null for none
 * @param password that user's password; null exactly when username is
 * @param caFile a PEM file of the certificates that sign the nodes' certificates; null: the JDK's
 *     default trust store
 * @quarry.experimental
 */
public record ClusterSecurity(String username, String password, Path caFile) {
  /** No credentials, the JDK's trust store. */
  public static final ClusterSecurity NONE = new ClusterSecurity(null, null, null);

  public ClusterSecurity {
    if ((username == null) != (password == null)) {
      throw new IllegalArgumentException("a username and a password go together");
    }
    if (username != null && (username.isEmpty() || username.contains(":"))) {
      throw new IllegalArgumentException("the username must be non-empty and hold no ':'");
    }
  }

  /**
   * The password kept in {@code file}: its content with one trailing line break removed.
   *
   * @throws IllegalArgumentException when it cannot be read or is empty (the message names the
   *     file, never its content)
   */
  public static String readPassword(Path file) {
    String s;
    try {
      s = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the password file " + file + ": " + FileErrors.whyUnreadable(file, e));
    }
    if (s.endsWith("\n")) {
      s = s.substring(0, s.length() - (s.endsWith("\r\n") ? 2 : 1));
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("the password file " + file + " is empty");
    }
    return s;
  }

  /** The {@code Authorization} header's value, or null without credentials. */
  String authorization() {
    if (username == null) {
      return null;
    }
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The TLS context that trusts the certificates of {@link #caFile}, or null to use the JDK's
   * default.
   *
   * @throws IllegalArgumentException when the file cannot be read or holds no certificate
   */
  SSLContext sslContext() {
    if (caFile == null) {
      return null;
    }
    return trusting(caFile);
  }

  /**
   * Checks that {@code pem} is a readable PEM file of certificates.
   *
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  public static void checkCaFile(Path pem) {
    trusting(pem);
  }

  /** A TLS context that trusts exactly the certificates in the PEM file {@code pem}. */
  static SSLContext trusting(Path pem) {
    try {
      Collection<? extends Certificate> certificates =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)));
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException("the CA file " + pem + " holds no certificate");
      }
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate c : certificates) {
        trust.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the CA file " + pem + ": " + FileErrors.whyUnreadable(pem, e));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the CA file " + pem + " is not a PEM file of certificates: " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "ClusterSecurity[username="
        + username
        + ", password="
        + (password == null ? "none" : "(hidden)")
        + ", caFile="
        + caFile
        + "]";
  }
}
