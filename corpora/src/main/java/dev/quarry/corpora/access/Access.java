package dev.quarry.corpora.access;

import java.util.List;
import java.util.Objects;

/**
 * Who is asking and what they were granted: the caller of every {@code Corpora} operation. Built by
 * the host's authenticator.
 */
public record Access(String subject, List<Grant> grants) {
  public Access {
    Objects.requireNonNull(subject, "subject");
    grants = List.copyOf(grants);
  }
}
