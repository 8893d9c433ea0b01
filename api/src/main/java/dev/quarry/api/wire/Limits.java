package dev.quarry.api.wire;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bounds a service enforces and advertises: every {@link Limit} with its value. Immutable;
 * {@link #with} returns a copy.
 */
public final class Limits {
  /** Every limit at its default. */
  public static final Limits DEFAULT = new Limits(new EnumMap<>(Limit.class));

  private final EnumMap<Limit, Long> values;

  private Limits(EnumMap<Limit, Long> overrides) {
    this.values = new EnumMap<>(Limit.class);
    for (Limit l : Limit.values()) {
      values.put(l, overrides.getOrDefault(l, l.defaultValue()));
    }
    if (get(Limit.DEFAULT_LIST_LIMIT) > get(Limit.MAX_LIST_LIMIT)) {
      throw new IllegalArgumentException(
          "defaultListLimit ("
              + get(Limit.DEFAULT_LIST_LIMIT)
              + ") must not exceed maxListLimit ("
              + get(Limit.MAX_LIST_LIMIT)
              + "); raise maxListLimit or lower defaultListLimit");
    }
  }

  /**
   * A copy with {@code limit} set to {@code value}.
   *
   * @throws IllegalArgumentException when {@code value} is below 1 or above the limit's ceiling
   */
  public Limits with(Limit limit, long value) {
    return with(Map.of(limit, value));
  }

  /**
   * A copy with every limit of {@code overrides} set at once (so a default and its maximum can move
   * together).
   *
   * @throws IllegalArgumentException when a value is below 1 or above its limit's ceiling
   */
  public Limits with(Map<Limit, Long> overrides) {
    EnumMap<Limit, Long> copy = new EnumMap<>(values);
    overrides.forEach(
        (limit, value) -> {
          if (value < 1 || value > limit.ceiling()) {
            throw new IllegalArgumentException(
                limit.wireName() + " must be between 1 and " + limit.ceiling() + "; got " + value);
          }
          copy.put(limit, value);
        });
    return new Limits(copy);
  }

  public long get(Limit limit) {
    return values.get(limit);
  }

  /** {@link #get} for limits that are counts of items or characters. */
  public int getInt(Limit limit) {
    return (int) Math.min(Integer.MAX_VALUE, values.get(limit));
  }

  /** Every limit by wire name, in declaration order: what {@code /v1/protocol} advertises. */
  public Map<String, Long> asWireMap() {
    Map<String, Long> out = new LinkedHashMap<>();
    values.forEach((l, v) -> out.put(l.wireName(), v));
    return Collections.unmodifiableMap(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits other && values.equals(other.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return "Limits" + asWireMap();
  }
}
