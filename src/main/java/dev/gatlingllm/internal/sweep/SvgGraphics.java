package dev.gatlingllm.internal.sweep;

import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Composite;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Graphics;
import java.awt.GraphicsConfiguration;
import java.awt.Image;
import java.awt.Paint;
import java.awt.Polygon;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.font.FontRenderContext;
import java.awt.font.GlyphVector;
import java.awt.font.TextLayout;
import java.awt.geom.AffineTransform;
import java.awt.geom.Arc2D;
import java.awt.geom.Area;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.NoninvertibleTransformException;
import java.awt.geom.Path2D;
import java.awt.geom.PathIterator;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.BufferedImageOp;
import java.awt.image.ImageObserver;
import java.awt.image.RenderedImage;
import java.awt.image.renderable.RenderableImage;
import java.text.AttributedCharacterIterator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link Graphics2D} that records what JFreeChart draws as an SVG document, so the sweep's
 * SVG plots are the same drawing as its PNG plots without a GPL library (JFreeSVG). It covers
 * what the sweep's charts use: shapes filled and stroked with colours and {@link BasicStroke}s,
 * text (kept as {@code <text>} so labels stay searchable; glyph runs of styled text, such as
 * a log axis' superscripts, become outlines), transforms, clips and alpha. Images, XOR mode
 * and non-colour paints are refused: nothing the sweep draws needs them.
 *
 * <p>Coordinates are written in user space with the element's transform; clips are kept in
 * device space and applied by wrapping the elements in a {@code <g clip-path>} group.
 */
final class SvgGraphics extends Graphics2D {

  /** Text measurement: a real font pipeline, with the same settings as the PNG output. */
  private static final Graphics2D SCRATCH = scratch();

  /** What every copy made by {@link #create()} writes into. */
  private static final class Document {
    final StringBuilder body = new StringBuilder();
    final StringBuilder defs = new StringBuilder();
    final Map<String, String> clipIds = new HashMap<>();
    /** The clip-path id of the open {@code <g>} group, or null when none is open. */
    String openClip;
  }

  private final Document doc;
  private Color color = Color.BLACK;
  private Color background = Color.WHITE;
  private Composite composite = AlphaComposite.SrcOver;
  private Stroke stroke = new BasicStroke(1f);
  private Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
  private AffineTransform transform = new AffineTransform();
  /** In device space; null means no clip. */
  private Shape clip;
  private final RenderingHints hints;

  private SvgGraphics(Document doc, RenderingHints hints) {
    this.doc = doc;
    this.hints = hints;
  }

  /** The SVG document of what {@code draw} paints on a {@code width} x {@code height} canvas. */
  static String render(int width, int height, Consumer<Graphics2D> draw) {
    SvgGraphics g = new SvgGraphics(new Document(), new RenderingHints(null));
    draw.accept(g);
    Document d = g.doc;
    StringBuilder out = new StringBuilder(d.body.length() + d.defs.length() + 256);
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width)
        .append(' ').append(height).append("\">\n");
    if (d.defs.length() > 0) {
      out.append("<defs>\n").append(d.defs).append("</defs>\n");
    }
    out.append(d.body);
    if (d.openClip != null) {
      out.append("</g>\n");
    }
    return out.append("</svg>\n").toString();
  }

  private static Graphics2D scratch() {
    Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
        RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    return g;
  }

  // ---- drawing: everything ends in fill, draw or drawString ----

  @Override
  public void fill(Shape s) {
    StringBuilder e = open("path");
    e.append(" d=\"").append(path(s)).append('"');
    if (windingRule(s) == PathIterator.WIND_EVEN_ODD) {
      e.append(" fill-rule=\"evenodd\"");
    }
    paintAttrs(e, "fill");
    close(e);
  }

  @Override
  public void draw(Shape s) {
    if (!(stroke instanceof BasicStroke bs)) {
      fill(stroke.createStrokedShape(s));
      return;
    }
    StringBuilder e = open("path");
    e.append(" d=\"").append(path(s)).append("\" fill=\"none\"");
    paintAttrs(e, "stroke");
    // Java2D draws a zero-width line one device pixel wide; SVG would draw nothing
    e.append(" stroke-width=\"").append(num(bs.getLineWidth() == 0f ? 1f : bs.getLineWidth()))
        .append('"');
    if (bs.getEndCap() != BasicStroke.CAP_BUTT) {
      e.append(" stroke-linecap=\"")
          .append(bs.getEndCap() == BasicStroke.CAP_ROUND ? "round" : "square").append('"');
    }
    if (bs.getLineJoin() == BasicStroke.JOIN_MITER) {
      e.append(" stroke-miterlimit=\"").append(num(bs.getMiterLimit())).append('"');
    } else {
      e.append(" stroke-linejoin=\"")
          .append(bs.getLineJoin() == BasicStroke.JOIN_ROUND ? "round" : "bevel").append('"');
    }
    float[] dash = bs.getDashArray();
    if (dash != null && dash.length > 0) {
      e.append(" stroke-dasharray=\"");
      for (int i = 0; i < dash.length; i++) {
        e.append(i == 0 ? "" : ",").append(num(dash[i]));
      }
      e.append('"');
      if (bs.getDashPhase() != 0f) {
        e.append(" stroke-dashoffset=\"").append(num(bs.getDashPhase())).append('"');
      }
    }
    close(e);
  }

  @Override
  public void drawString(String str, float x, float y) {
    if (str == null) {
      throw new NullPointerException("drawString: the string is null");
    }
    if (str.isEmpty()) {
      return;
    }
    StringBuilder e = open("text");
    e.append(" x=\"").append(num(x)).append("\" y=\"").append(num(y))
        .append("\" font-family=\"").append(escape(family(font))).append("\" font-size=\"")
        .append(num(font.getSize2D())).append('"');
    if (font.isBold()) {
      e.append(" font-weight=\"bold\"");
    }
    if (font.isItalic()) {
      e.append(" font-style=\"italic\"");
    }
    paintAttrs(e, "fill");
    e.append(" xml:space=\"preserve\">").append(escape(str)).append("</text>\n");
    doc.body.append(e);
  }

  @Override
  public void drawString(String str, int x, int y) {
    drawString(str, (float) x, (float) y);
  }

  @Override
  public void drawString(AttributedCharacterIterator iterator, float x, float y) {
    new TextLayout(iterator, getFontRenderContext()).draw(this, x, y);
  }

  @Override
  public void drawString(AttributedCharacterIterator iterator, int x, int y) {
    drawString(iterator, (float) x, (float) y);
  }

  @Override
  public void drawGlyphVector(GlyphVector g, float x, float y) {
    fill(g.getOutline(x, y));
  }

  /** Starts an element inside the group of the current clip, with the current transform. */
  private StringBuilder open(String element) {
    String clipId = clip == null ? null : clipId(clip);
    if (!Objects.equals(clipId, doc.openClip)) {
      if (doc.openClip != null) {
        doc.body.append("</g>\n");
      }
      if (clipId != null) {
        doc.body.append("<g clip-path=\"url(#").append(clipId).append(")\">\n");
      }
      doc.openClip = clipId;
    }
    StringBuilder e = new StringBuilder(96).append('<').append(element);
    if (!transform.isIdentity()) {
      e.append(" transform=\"matrix(").append(num(transform.getScaleX())).append(',')
          .append(num(transform.getShearY())).append(',').append(num(transform.getShearX()))
          .append(',').append(num(transform.getScaleY())).append(',')
          .append(num(transform.getTranslateX())).append(',')
          .append(num(transform.getTranslateY())).append(")\"");
    }
    return e;
  }

  private void close(StringBuilder element) {
    doc.body.append(element).append("/>\n");
  }

  private String clipId(Shape deviceClip) {
    String d = path(deviceClip);
    return doc.clipIds.computeIfAbsent(d, k -> {
      String id = "clip" + doc.clipIds.size();
      doc.defs.append("<clipPath id=\"").append(id).append("\"><path d=\"").append(k)
          .append("\"/></clipPath>\n");
      return id;
    });
  }

  /** fill="#rrggbb" (or stroke=...) and its opacity from the colour's alpha and the composite. */
  private void paintAttrs(StringBuilder e, String attr) {
    e.append(' ').append(attr).append("=\"#")
        .append(String.format(Locale.ROOT, "%06x", color.getRGB() & 0xffffff)).append('"');
    double alpha = color.getAlpha() / 255.0 * ((AlphaComposite) composite).getAlpha();
    if (alpha < 1.0) {
      e.append(' ').append(attr).append("-opacity=\"").append(num(alpha)).append('"');
    }
  }

  private static int windingRule(Shape s) {
    return s.getPathIterator(null).getWindingRule();
  }

  static String path(Shape s) {
    StringBuilder d = new StringBuilder();
    double[] c = new double[6];
    for (PathIterator it = s.getPathIterator(null); !it.isDone(); it.next()) {
      switch (it.currentSegment(c)) {
        case PathIterator.SEG_MOVETO -> d.append('M').append(num(c[0])).append(' ')
            .append(num(c[1]));
        case PathIterator.SEG_LINETO -> d.append('L').append(num(c[0])).append(' ')
            .append(num(c[1]));
        case PathIterator.SEG_QUADTO -> d.append('Q').append(num(c[0])).append(' ')
            .append(num(c[1])).append(' ').append(num(c[2])).append(' ').append(num(c[3]));
        case PathIterator.SEG_CUBICTO -> d.append('C').append(num(c[0])).append(' ')
            .append(num(c[1])).append(' ').append(num(c[2])).append(' ').append(num(c[3]))
            .append(' ').append(num(c[4])).append(' ').append(num(c[5]));
        default -> d.append('Z');
      }
    }
    return d.toString();
  }

  /** At most two decimals (a hundredth of a pixel), no exponent, no "-0". */
  static String num(double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException("SVG: a coordinate is " + v);
    }
    long hundredths = Math.round(v * 100);
    StringBuilder s = new StringBuilder();
    if (hundredths < 0) {
      s.append('-');
      hundredths = -hundredths;
    }
    s.append(hundredths / 100);
    long frac = hundredths % 100;
    if (frac != 0) {
      s.append('.').append(frac / 10);
      if (frac % 10 != 0) {
        s.append(frac % 10);
      }
    }
    return s.toString();
  }

  /** The CSS family of a Java font: logical names map to the generic families. */
  static String family(Font f) {
    return switch (f.getFamily(Locale.ROOT)) {
      case Font.SANS_SERIF, Font.DIALOG -> "sans-serif";
      case Font.SERIF -> "serif";
      case Font.MONOSPACED, Font.DIALOG_INPUT -> "monospace";
      default -> "'" + f.getFamily(Locale.ROOT).replace("'", "") + "', sans-serif";
    };
  }

  /** Text and attribute values: XML's special characters escaped, characters XML forbids dropped. */
  static String escape(String text) {
    StringBuilder s = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      switch (ch) {
        case '&' -> s.append("&amp;");
        case '<' -> s.append("&lt;");
        case '>' -> s.append("&gt;");
        case '"' -> s.append("&quot;");
        default -> {
          if (ch >= 0x20 || ch == '\t' || ch == '\n' || ch == '\r') {
            s.append(ch);
          }
        }
      }
    }
    return s.toString();
  }

  // ---- state ----

  @Override
  public Graphics create() {
    SvgGraphics g = new SvgGraphics(doc, (RenderingHints) hints.clone());
    g.color = color;
    g.background = background;
    g.composite = composite;
    g.stroke = stroke;
    g.font = font;
    g.transform = new AffineTransform(transform);
    g.clip = clip;
    return g;
  }

  @Override
  public void dispose() {
    // nothing held: the document belongs to render()
  }

  @Override
  public void setPaint(Paint paint) {
    if (paint == null) {
      return; // as Java2D: a null paint leaves the paint unchanged
    }
    if (!(paint instanceof Color c)) {
      throw new UnsupportedOperationException("SVG output paints with colours only, not "
          + paint.getClass().getSimpleName());
    }
    this.color = c;
  }

  @Override
  public Paint getPaint() {
    return color;
  }

  @Override
  public void setColor(Color c) {
    setPaint(c);
  }

  @Override
  public Color getColor() {
    return color;
  }

  @Override
  public void setBackground(Color color) {
    background = color;
  }

  @Override
  public Color getBackground() {
    return background;
  }

  @Override
  public void setComposite(Composite comp) {
    if (!(comp instanceof AlphaComposite)) {
      throw new UnsupportedOperationException("SVG output supports alpha composites only, not "
          + (comp == null ? "null" : comp.getClass().getSimpleName()));
    }
    composite = comp;
  }

  @Override
  public Composite getComposite() {
    return composite;
  }

  @Override
  public void setStroke(Stroke s) {
    if (s != null) {
      stroke = s;
    }
  }

  @Override
  public Stroke getStroke() {
    return stroke;
  }

  @Override
  public void setFont(Font font) {
    if (font != null) {
      this.font = font;
    }
  }

  @Override
  public Font getFont() {
    return font;
  }

  @Override
  public FontMetrics getFontMetrics(Font f) {
    return SCRATCH.getFontMetrics(f);
  }

  @Override
  public FontRenderContext getFontRenderContext() {
    return SCRATCH.getFontRenderContext();
  }

  @Override
  public GraphicsConfiguration getDeviceConfiguration() {
    return SCRATCH.getDeviceConfiguration();
  }

  @Override
  public void setRenderingHint(RenderingHints.Key key, Object value) {
    hints.put(key, value);
  }

  @Override
  public Object getRenderingHint(RenderingHints.Key key) {
    return hints.get(key);
  }

  @Override
  public void setRenderingHints(Map<?, ?> map) {
    hints.clear();
    hints.putAll(map);
  }

  @Override
  public void addRenderingHints(Map<?, ?> map) {
    hints.putAll(map);
  }

  @Override
  public RenderingHints getRenderingHints() {
    return (RenderingHints) hints.clone();
  }

  @Override
  public void setPaintMode() {
    // the only mode there is
  }

  @Override
  public void setXORMode(Color c1) {
    throw new UnsupportedOperationException("SVG output has no XOR mode");
  }

  // ---- transform ----

  @Override
  public void translate(int x, int y) {
    transform.translate(x, y);
  }

  @Override
  public void translate(double tx, double ty) {
    transform.translate(tx, ty);
  }

  @Override
  public void rotate(double theta) {
    transform.rotate(theta);
  }

  @Override
  public void rotate(double theta, double x, double y) {
    transform.rotate(theta, x, y);
  }

  @Override
  public void scale(double sx, double sy) {
    transform.scale(sx, sy);
  }

  @Override
  public void shear(double shx, double shy) {
    transform.shear(shx, shy);
  }

  @Override
  public void transform(AffineTransform tx) {
    transform.concatenate(tx);
  }

  @Override
  public void setTransform(AffineTransform tx) {
    transform = new AffineTransform(tx);
  }

  @Override
  public AffineTransform getTransform() {
    return new AffineTransform(transform);
  }

  // ---- clip: given in user space, kept in device space ----

  @Override
  public Shape getClip() {
    if (clip == null) {
      return null;
    }
    try {
      return transform.createInverse().createTransformedShape(clip);
    } catch (NoninvertibleTransformException e) {
      return null;
    }
  }

  @Override
  public Rectangle getClipBounds() {
    Shape c = getClip();
    return c == null ? null : c.getBounds();
  }

  @Override
  public void setClip(Shape s) {
    clip = s == null ? null : transform.createTransformedShape(s);
  }

  @Override
  public void setClip(int x, int y, int width, int height) {
    setClip(new Rectangle(x, y, width, height));
  }

  @Override
  public void clip(Shape s) {
    Shape device = transform.createTransformedShape(s);
    if (clip == null) {
      clip = device;
    } else {
      Area a = new Area(clip);
      a.intersect(new Area(device));
      clip = a;
    }
  }

  @Override
  public void clipRect(int x, int y, int width, int height) {
    clip(new Rectangle(x, y, width, height));
  }

  @Override
  public boolean hit(Rectangle rect, Shape s, boolean onStroke) {
    Shape shape = onStroke ? stroke.createStrokedShape(s) : s;
    return transform.createTransformedShape(shape).intersects(rect);
  }

  // ---- Graphics' primitives, as shapes ----

  @Override
  public void drawLine(int x1, int y1, int x2, int y2) {
    draw(new Line2D.Double(x1, y1, x2, y2));
  }

  @Override
  public void drawRect(int x, int y, int width, int height) {
    draw(new Rectangle(x, y, width, height));
  }

  @Override
  public void fillRect(int x, int y, int width, int height) {
    fill(new Rectangle(x, y, width, height));
  }

  @Override
  public void clearRect(int x, int y, int width, int height) {
    Color saved = color;
    setPaint(background);
    fillRect(x, y, width, height);
    setPaint(saved);
  }

  @Override
  public void drawRoundRect(int x, int y, int width, int height, int arcWidth, int arcHeight) {
    draw(new RoundRectangle2D.Double(x, y, width, height, arcWidth, arcHeight));
  }

  @Override
  public void fillRoundRect(int x, int y, int width, int height, int arcWidth, int arcHeight) {
    fill(new RoundRectangle2D.Double(x, y, width, height, arcWidth, arcHeight));
  }

  @Override
  public void drawOval(int x, int y, int width, int height) {
    draw(new Ellipse2D.Double(x, y, width, height));
  }

  @Override
  public void fillOval(int x, int y, int width, int height) {
    fill(new Ellipse2D.Double(x, y, width, height));
  }

  @Override
  public void drawArc(int x, int y, int width, int height, int startAngle, int arcAngle) {
    draw(new Arc2D.Double(x, y, width, height, startAngle, arcAngle, Arc2D.OPEN));
  }

  @Override
  public void fillArc(int x, int y, int width, int height, int startAngle, int arcAngle) {
    fill(new Arc2D.Double(x, y, width, height, startAngle, arcAngle, Arc2D.PIE));
  }

  @Override
  public void drawPolyline(int[] xPoints, int[] yPoints, int nPoints) {
    if (nPoints < 2) {
      return;
    }
    Path2D.Double p = new Path2D.Double();
    p.moveTo(xPoints[0], yPoints[0]);
    for (int i = 1; i < nPoints; i++) {
      p.lineTo(xPoints[i], yPoints[i]);
    }
    draw(p);
  }

  @Override
  public void drawPolygon(int[] xPoints, int[] yPoints, int nPoints) {
    draw(new Polygon(xPoints, yPoints, nPoints));
  }

  @Override
  public void fillPolygon(int[] xPoints, int[] yPoints, int nPoints) {
    fill(new Polygon(xPoints, yPoints, nPoints));
  }

  // ---- what the sweep never draws ----

  @Override
  public void copyArea(int x, int y, int width, int height, int dx, int dy) {
    throw new UnsupportedOperationException("SVG output cannot copy an area");
  }

  private static UnsupportedOperationException noImages() {
    return new UnsupportedOperationException("SVG output draws no images");
  }

  @Override
  public boolean drawImage(Image img, AffineTransform xform, ImageObserver obs) {
    throw noImages();
  }

  @Override
  public void drawImage(BufferedImage img, BufferedImageOp op, int x, int y) {
    throw noImages();
  }

  @Override
  public void drawRenderedImage(RenderedImage img, AffineTransform xform) {
    throw noImages();
  }

  @Override
  public void drawRenderableImage(RenderableImage img, AffineTransform xform) {
    throw noImages();
  }

  @Override
  public boolean drawImage(Image img, int x, int y, ImageObserver observer) {
    throw noImages();
  }

  @Override
  public boolean drawImage(Image img, int x, int y, int width, int height,
      ImageObserver observer) {
    throw noImages();
  }

  @Override
  public boolean drawImage(Image img, int x, int y, Color bgcolor, ImageObserver observer) {
    throw noImages();
  }

  @Override
  public boolean drawImage(Image img, int x, int y, int width, int height, Color bgcolor,
      ImageObserver observer) {
    throw noImages();
  }

  @Override
  public boolean drawImage(Image img, int dx1, int dy1, int dx2, int dy2, int sx1, int sy1,
      int sx2, int sy2, ImageObserver observer) {
    throw noImages();
  }

  @Override
  public boolean drawImage(Image img, int dx1, int dy1, int dx2, int dy2, int sx1, int sy1,
      int sx2, int sy2, Color bgcolor, ImageObserver observer) {
    throw noImages();
  }
}
