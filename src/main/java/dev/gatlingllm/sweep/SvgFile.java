package dev.gatlingllm.sweep;

import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * SVG output through JFreeSVG. Kept apart so that JFreeSVG, an optional dependency (GPL),
 * is only loaded when SVG is asked for.
 */
final class SvgFile {

  private SvgFile() {}

  static void write(Path file, int width, int height, Consumer<Graphics2D> draw)
      throws IOException {
    try {
      Class.forName("org.jfree.svg.SVGGraphics2D", false, SvgFile.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("SVG output needs JFreeSVG on the class path "
          + "(org.jfree:org.jfree.svg:5.0.7, GPL; an optional dependency of the plugin): add it "
          + "to your project, or use --format png", e);
    }
    org.jfree.svg.SVGGraphics2D g = new org.jfree.svg.SVGGraphics2D(width, height);
    draw.accept(g);
    Files.writeString(file, g.getSVGDocument(), StandardCharsets.UTF_8);
  }
}
