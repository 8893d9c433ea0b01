package dev.quarry.app.console;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * WCAG 2.x contrast between a text colour and the background it is drawn on, from the colours a
 * browser computes ({@code rgb(r, g, b)} or {@code rgba(r, g, b, a)}). Translucent colours are
 * composited over what lies beneath them first, as the browser paints them.
 */
final class Contrast {
  /** The smallest ratio for normal text (WCAG 2.x success criterion 1.4.3, level AA). */
  static final double NORMAL_TEXT = 4.5;

  /** The smallest ratio for large text: at least 24 px, or at least 18.66 px (14 pt) and bold. */
  static final double LARGE_TEXT = 3.0;

  /** What the page is drawn on where nothing paints a background: the browser's white canvas. */
  static final Rgba CANVAS = new Rgba(255, 255, 255, 1);

  private static final Pattern CSS_RGB =
      Pattern.compile(
          "rgba?\\(\\s*([\\d.]+)[,\\s]+([\\d.]+)[,\\s]+([\\d.]+)(?:\\s*[,/]\\s*([\\d.]+)(%?))?\\s*\\)");

  private Contrast() {}

  /** A colour with channels 0..255 and alpha 0..1. */
  record Rgba(double r, double g, double b, double a) {
    static Rgba parse(String css) {
      String c = css.trim();
      if (c.equals("transparent")) {
        return new Rgba(0, 0, 0, 0);
      }
      Matcher m = CSS_RGB.matcher(c);
      if (!m.matches()) {
        throw new IllegalArgumentException("not an rgb() colour: " + css);
      }
      double alpha =
          m.group(4) == null
              ? 1
              : Double.parseDouble(m.group(4)) / (m.group(5).isEmpty() ? 1 : 100);
      return new Rgba(
          Double.parseDouble(m.group(1)),
          Double.parseDouble(m.group(2)),
          Double.parseDouble(m.group(3)),
          alpha);
    }

    /** This colour painted over {@code below} (which is opaque). */
    Rgba over(Rgba below) {
      return new Rgba(
          r * a + below.r * (1 - a), g * a + below.g * (1 - a), b * a + below.b * (1 - a), 1);
    }

    @Override
    public String toString() {
      return a >= 1
          ? "rgb(%.0f, %.0f, %.0f)".formatted(r, g, b)
          : "rgba(%.0f, %.0f, %.0f, %.2f)".formatted(r, g, b, a);
    }
  }

  /**
   * The opaque colour under a piece of text: {@code layers} are the computed background colours
   * from the text's element outwards (nearest first), painted over the canvas from the outermost
   * in.
   */
  static Rgba background(List<String> layers) {
    Rgba painted = CANVAS;
    for (int i = layers.size() - 1; i >= 0; i--) {
      painted = Rgba.parse(layers.get(i)).over(painted);
    }
    return painted;
  }

  /** The contrast ratio (1 to 21) of {@code text} drawn over the opaque {@code background}. */
  static double ratio(Rgba text, Rgba background) {
    double a = relativeLuminance(text.over(background));
    double b = relativeLuminance(background);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  }

  /** The least ratio text of this size and weight needs. */
  static double required(double fontSizePx, int fontWeight) {
    boolean large = fontSizePx >= 24 || (fontSizePx >= 18.66 && fontWeight >= 700);
    return large ? LARGE_TEXT : NORMAL_TEXT;
  }

  /** Relative luminance as WCAG 2.x defines it, from linearised sRGB channels. */
  static double relativeLuminance(Rgba c) {
    return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
  }

  /** The sRGB transfer function undone (WCAG 2.2 gives 0.04045 as the threshold, as sRGB does). */
  private static double linear(double channel) {
    double s = channel / 255;
    return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  }
}
