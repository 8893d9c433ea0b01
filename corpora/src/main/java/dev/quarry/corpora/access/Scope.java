package dev.quarry.corpora.access;

import java.util.Locale;

/**
 * What a grant allows: search; index (and source reads, history); manage (create, delete corpora).
 */
public enum Scope {
  SEARCH,
  INDEX,
  MANAGE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The scope named on the wire, or null for an unknown name. */
  public static Scope fromWireName(String name) {
    for (Scope s : values()) {
      if (s.wireName().equals(name)) {
        return s;
      }
    }
    return null;
  }
}
