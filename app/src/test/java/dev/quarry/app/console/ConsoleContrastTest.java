package dev.quarry.app.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contrast arithmetic the accessibility audit judges the console's text by, on known values.
 */
class ConsoleContrastTest {
  private static final Contrast.Rgba WHITE = Contrast.Rgba.parse("rgb(255, 255, 255)");

  @Test
  void ratios_areWcags() {
    assertEquals(21.0, Contrast.ratio(Contrast.Rgba.parse("rgb(0, 0, 0)"), WHITE), 1e-9);
    assertEquals(1.0, Contrast.ratio(WHITE, WHITE), 1e-9);
    // #767676 is the lightest grey that passes on white; #777777 is not.
    assertEquals(4.54, Contrast.ratio(Contrast.Rgba.parse("rgb(118, 118, 118)"), WHITE), 0.01);
    assertEquals(4.48, Contrast.ratio(Contrast.Rgba.parse("rgb(119, 119, 119)"), WHITE), 0.01);
  }

  @Test
  void translucentLayers_arePaintedOverWhatIsBeneathThem() {
    Contrast.Rgba under =
        Contrast.background(
            List.of("rgba(0, 0, 0, 0)", "rgba(255, 255, 255, 0.5)", "rgb(0, 0, 0)"));
    assertEquals(new Contrast.Rgba(127.5, 127.5, 127.5, 1), under);
    assertEquals(
        WHITE, Contrast.background(List.of("rgba(0, 0, 0, 0)")), "the canvas where nothing paints");
    Contrast.Rgba halfBlack = Contrast.Rgba.parse("rgba(0, 0, 0, 0.5)");
    assertEquals(
        Contrast.ratio(Contrast.Rgba.parse("rgb(127.5, 127.5, 127.5)"), WHITE),
        Contrast.ratio(halfBlack, WHITE),
        1e-9);
  }

  @Test
  void largeText_needsLess() {
    assertEquals(4.5, Contrast.required(15, 400));
    assertEquals(4.5, Contrast.required(19, 400));
    assertEquals(3.0, Contrast.required(19, 700));
    assertEquals(3.0, Contrast.required(24, 400));
  }

  @Test
  void aColourThatIsNotRgb_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> Contrast.Rgba.parse("oklch(0.5 0.1 200)"));
  }
}
