package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sweep.AxisScale;
import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgGraphicsTest {

  static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(
        new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<Element> all(Document doc, String name) {
    NodeList nodes = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", name);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add((Element) nodes.item(i));
    }
    return out;
  }

  private static List<String> texts(Document doc) {
    return all(doc, "text").stream().map(Element::getTextContent).toList();
  }

  private static Document draw(Consumer<Graphics2D> draw) throws Exception {
    return parse(SvgGraphics.render(200, 100, draw));
  }

  @Test
  void aFilledRectangleAndAStrokedLineBecomePathsInTheirColours() throws Exception {
    Document doc = draw(g -> {
      g.setColor(new Color(0x2e6bd8));
      g.fillRect(10, 20, 30, 40);
      g.setColor(Color.RED);
      g.setStroke(new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_BEVEL, 10f,
          new float[] {4f, 2f}, 0f));
      g.drawLine(0, 0, 100, 50);
    });
    Element svg = doc.getDocumentElement();
    assertEquals("svg", svg.getLocalName());
    assertEquals("200", svg.getAttribute("width"));
    assertEquals("0 0 200 100", svg.getAttribute("viewBox"));
    List<Element> paths = all(doc, "path");
    assertEquals(2, paths.size());
    assertEquals("M10 20L40 20L40 60L10 60L10 20Z", paths.get(0).getAttribute("d"));
    assertEquals("#2e6bd8", paths.get(0).getAttribute("fill"));
    Element line = paths.get(1);
    assertEquals("M0 0L100 50", line.getAttribute("d"));
    assertEquals("none", line.getAttribute("fill"));
    assertEquals("#ff0000", line.getAttribute("stroke"));
    assertEquals("2.5", line.getAttribute("stroke-width"));
    assertEquals("round", line.getAttribute("stroke-linecap"));
    assertEquals("bevel", line.getAttribute("stroke-linejoin"));
    assertEquals("4,2", line.getAttribute("stroke-dasharray"));
  }

  @Test
  void textStaysTextWithItsFontEscapedAndRotatedByItsTransform() throws Exception {
    Document doc = draw(g -> {
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.setColor(Color.DARK_GRAY);
      g.drawString("p99 <ttft> & \"e2el\"", 10, 22);
      g.rotate(-Math.PI / 2);
      g.setFont(new Font(Font.SERIF, Font.ITALIC, 11));
      g.drawString("max_concurrency (log)", -80f, 15.125f);
    });
    List<Element> texts = all(doc, "text");
    assertEquals(List.of("p99 <ttft> & \"e2el\"", "max_concurrency (log)"), texts(doc));
    Element title = texts.get(0);
    assertEquals("10", title.getAttribute("x"));
    assertEquals("22", title.getAttribute("y"));
    assertEquals("sans-serif", title.getAttribute("font-family"));
    assertEquals("15", title.getAttribute("font-size"));
    assertEquals("bold", title.getAttribute("font-weight"));
    assertEquals("#404040", title.getAttribute("fill"));
    assertFalse(title.hasAttribute("transform"));
    Element axis = texts.get(1);
    assertEquals("serif", axis.getAttribute("font-family"));
    assertEquals("italic", axis.getAttribute("font-style"));
    assertEquals("15.13", axis.getAttribute("y"));
    // rotating by -90 degrees: cos 0, sin -1
    assertEquals("matrix(0,-1,1,0,0,0)", axis.getAttribute("transform"));
  }

  @Test
  void controlCharactersThatXmlForbidsAreDropped() throws Exception {
    Document doc = draw(g -> g.drawString("a\u0001b\u001fc", 0, 10));
    assertEquals(List.of("abc"), texts(doc));
  }

  @Test
  void clipsGroupTheElementsDrawnInsideThemInDeviceSpace() throws Exception {
    Document doc = draw(g -> {
      g.fillRect(0, 0, 5, 5);
      g.translate(50, 10);
      g.clip(new Rectangle2D.Double(0, 0, 20, 30));
      g.fillRect(1, 1, 100, 100);
      g.fillRect(2, 2, 3, 3);
      g.setClip(null);
      g.fillRect(0, 0, 1, 1);
    });
    List<Element> clips = all(doc, "clipPath");
    assertEquals(1, clips.size());
    Element clipPath = (Element) clips.get(0).getElementsByTagNameNS("*", "path").item(0);
    assertEquals("M50 10L70 10L70 40L50 40L50 10Z", clipPath.getAttribute("d"));
    List<Element> groups = all(doc, "g");
    assertEquals(1, groups.size());
    assertEquals("url(#" + clips.get(0).getAttribute("id") + ")",
        groups.get(0).getAttribute("clip-path"));
    assertEquals(2, groups.get(0).getElementsByTagNameNS("*", "path").getLength(),
        "the two rectangles drawn while clipped, and only those");
    assertEquals(5, all(doc, "path").size(), "4 rectangles and the clip's own path");
  }

  @Test
  void theClipReadBackIsInUserSpaceAndIntersectsWithTheNextOne() throws Exception {
    draw(g -> {
      g.translate(10, 10);
      g.clipRect(0, 0, 50, 50);
      g.clipRect(20, 30, 100, 100);
      assertEquals(new java.awt.Rectangle(20, 30, 30, 20), g.getClipBounds());
    });
  }

  @Test
  void alphaFromTheColourAndTheCompositeMultiply() throws Exception {
    Document doc = draw(g -> {
      g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, 0.5f));
      g.setColor(new Color(255, 0, 0, 51)); // 0.2
      g.fillRect(0, 0, 1, 1);
    });
    assertEquals("0.1", all(doc, "path").get(0).getAttribute("fill-opacity"));
  }

  @Test
  void aCopyWritesIntoTheSameDocumentWithItsOwnState() throws Exception {
    Document doc = draw(g -> {
      Graphics2D copy = (Graphics2D) g.create();
      copy.setColor(Color.BLUE);
      copy.translate(5, 5);
      copy.fillRect(0, 0, 1, 1);
      copy.dispose();
      g.fillRect(0, 0, 1, 1);
    });
    List<Element> paths = all(doc, "path");
    assertEquals("#0000ff", paths.get(0).getAttribute("fill"));
    assertEquals("matrix(1,0,0,1,5,5)", paths.get(0).getAttribute("transform"));
    assertEquals("#000000", paths.get(1).getAttribute("fill"));
    assertFalse(paths.get(1).hasAttribute("transform"));
  }

  @Test
  void whatTheSweepNeverDrawsIsRefusedWithItsReason() {
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> SvgGraphics.render(10, 10,
            g -> g.setPaint(new GradientPaint(0, 0, Color.RED, 1, 1, Color.BLUE))));
    assertEquals("SVG output paints with colours only, not GradientPaint", e.getMessage());
    assertThrows(UnsupportedOperationException.class, () -> SvgGraphics.render(10, 10,
        g -> g.drawImage(new java.awt.image.BufferedImage(1, 1, 1), 0, 0, null)));
  }

  @Test
  void numbersHaveAtMostTwoDecimalsAndNoNegativeZero() {
    assertEquals("0", SvgGraphics.num(-0.004));
    assertEquals("-1.5", SvgGraphics.num(-1.5));
    assertEquals("12.05", SvgGraphics.num(12.049999));
    assertEquals("3", SvgGraphics.num(2.999));
    assertEquals("100000", SvgGraphics.num(1e5));
    assertThrows(IllegalArgumentException.class, () -> SvgGraphics.num(Double.NaN));
  }

  /** The sweep's own chart: the same JFreeChart drawing as the PNG, as well-formed SVG. */
  @Test
  void aSweepFigureIsWellFormedSvgWithItsSeriesLabelsAndColours(@TempDir Path dir)
      throws Exception {
    Figures.Point a1 = new Figures.Point(8, Stats.of(new double[] {100, 110, 120}, 0.95), "a1",
        List.of());
    Figures.Point a2 = new Figures.Point(32, Stats.of(new double[] {300}, 0.95), "a2", List.of());
    Figures.Point b1 = new Figures.Point(8, Stats.of(new double[] {90}, 0.95), "b1", List.of());
    Figures.Point b2 = new Figures.Point(64, Stats.of(new double[] {400}, 0.95), "b2", List.of());
    Figures.Figure figure = new Figures.Figure("p99_ttft_ms-vs-max_concurrency",
        "max_concurrency", "p99_ttft_ms", AxisScale.LOG, AxisScale.LINEAR, List.of(""),
        List.of(""),
        List.of(new Figures.Panel("", "", List.of(
            new Figures.Curve("tp=1 & <small>", List.of(a1, a2)),
            new Figures.Curve("tp=2", List.of(b1, b2))))));
    List<Path> files = ChartImages.write(figure, dir, List.of(ChartImages.Format.SVG));
    assertEquals(List.of(dir.resolve("p99_ttft_ms-vs-max_concurrency.svg")), files);
    String svg = Files.readString(files.get(0));
    Document doc = parse(svg);
    assertEquals(String.valueOf(ChartImages.PANEL_WIDTH),
        doc.getDocumentElement().getAttribute("width"));
    List<String> texts = texts(doc);
    assertTrue(texts.contains("p99_ttft_ms-vs-max_concurrency"), "the figure's title " + texts);
    assertTrue(texts.contains("max_concurrency (log)"), "the log x axis " + texts);
    assertTrue(texts.contains("p99_ttft_ms"), "the y axis " + texts);
    assertTrue(texts.contains("tp=1 & <small>"), "the first series in the legend " + texts);
    assertTrue(texts.contains("tp=2"), "the second series in the legend " + texts);
    List<String> strokes = all(doc, "path").stream().map(p -> p.getAttribute("stroke"))
        .toList();
    assertTrue(strokes.contains("#2e6bd8") && strokes.contains("#e07b12"),
        "each curve's line in its colour: " + strokes.stream().distinct().toList());
    assertFalse(all(doc, "clipPath").isEmpty(), "the curves are clipped to the plot area");
  }
}
