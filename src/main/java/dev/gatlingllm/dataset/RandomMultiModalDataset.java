package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

/**
 * Random text with random images ({@code --dataset-name random-mm}), as vLLM builds it: the
 * text is the {@code random} dataset's; each request gets a number of items drawn uniformly
 * around {@code baseItemsPerRequest}, each item a bucket {@code (height, width, frames)} drawn
 * with the bucket's probability (buckets of a modality whose per-prompt limit is reached drop
 * out). Images are seeded random pixels sent as JPEG data URLs ({@code image_url} parts), in
 * the feeder attribute {@value #MM_CONTENT}: give it to {@code chat(...).multiModal("#{mm_content}")}.
 *
 * <p>Video items (buckets with more than one frame) are refused: vLLM encodes them as MP4,
 * and no MP4 encoder is available to the JVM without native code. Give them probability 0.
 */
public final class RandomMultiModalDataset extends DatasetBuilder<RandomMultiModalDataset> {

  /** Feeder attribute of the content parts ({@code List<Map<String, Object>>}). */
  public static final String MM_CONTENT = "mm_content";

  /** One size of generated item and its probability. */
  public record Bucket(int height, int width, int frames, double probability) {
    public Bucket {
      if (height < 1 || width < 1 || frames < 1 || !(probability >= 0)) {
        throw new IllegalArgumentException("random-mm bucket needs height, width and frames "
            + ">= 1 and a probability >= 0, got (" + height + ", " + width + ", " + frames
            + "): " + probability);
      }
    }

    String modality() {
      return frames == 1 ? "image" : "video";
    }
  }

  /** vLLM's default: half 256x256 images, half 720x1280, and video at probability 0. */
  public static final List<Bucket> DEFAULT_BUCKETS = List.of(new Bucket(256, 256, 1, 0.5),
      new Bucket(720, 1280, 1, 0.5), new Bucket(720, 1280, 16, 0.0));

  private final RandomDataset text;
  private final int baseItems;
  private final double itemsRangeRatio;
  private final Map<String, Integer> limits;
  private final List<Bucket> buckets;

  RandomMultiModalDataset() {
    this(Common.DEFAULTS, new RandomDataset(), 1, 0.0, Map.of("image", 255, "video", 1),
        DEFAULT_BUCKETS.stream().filter(b -> b.probability() > 0).toList());
  }

  private RandomMultiModalDataset(Common common, RandomDataset text, int baseItems,
      double itemsRangeRatio, Map<String, Integer> limits, List<Bucket> buckets) {
    super(common);
    this.text = text;
    this.baseItems = baseItems;
    this.itemsRangeRatio = itemsRangeRatio;
    this.limits = limits;
    this.buckets = buckets;
  }

  @Override
  RandomMultiModalDataset with(Common common) {
    return new RandomMultiModalDataset(common, text, baseItems, itemsRangeRatio, limits, buckets);
  }

  /** The text part, configured as the {@code random} dataset ({@code --random-*} flags). */
  public RandomMultiModalDataset text(RandomDataset random) {
    return new RandomMultiModalDataset(common, random, baseItems, itemsRangeRatio, limits,
        buckets);
  }

  /** {@code --random-mm-base-items-per-request} (default 1). */
  public RandomMultiModalDataset baseItemsPerRequest(int items) {
    atLeast("random-mm-base-items-per-request", items, 0);
    return new RandomMultiModalDataset(common, text, items, itemsRangeRatio, limits, buckets);
  }

  /** {@code --random-mm-num-mm-items-range-ratio}, in [0, 1] (default 0). */
  public RandomMultiModalDataset itemsRangeRatio(double ratio) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw new IllegalArgumentException("random-mm-num-mm-items-range-ratio must be in "
          + "[0, 1], got " + ratio);
    }
    return new RandomMultiModalDataset(common, text, baseItems, ratio, limits, buckets);
  }

  /** {@code --random-mm-limit-mm-per-prompt}, e.g. {@code {"image": 3, "video": 0}}. */
  public RandomMultiModalDataset limitPerPrompt(Map<String, Integer> perModality) {
    return new RandomMultiModalDataset(common, text, baseItems, itemsRangeRatio,
        Map.copyOf(perModality), buckets);
  }

  /** {@code --random-mm-bucket-config}; probabilities are normalised, zeros dropped. */
  public RandomMultiModalDataset buckets(List<Bucket> config) {
    List<Bucket> kept = config.stream().filter(b -> b.probability() > 0).toList();
    if (kept.isEmpty()) {
      throw new IllegalArgumentException("random-mm-bucket-config has no bucket with a "
          + "probability above 0");
    }
    for (Bucket b : kept) {
      if (b.frames() > 1) {
        throw new IllegalArgumentException("random-mm bucket (" + b.height() + ", " + b.width()
            + ", " + b.frames() + ") is a video: vLLM sends generated video as MP4, which "
            + "cannot be encoded here; give video buckets probability 0");
      }
    }
    return new RandomMultiModalDataset(common, text, baseItems, itemsRangeRatio, limits, kept);
  }

  private static final Pattern BUCKET = Pattern.compile(
      "\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)\\s*:\\s*([0-9.eE+-]+)");

  /** Parses vLLM's Python-literal bucket map {@code {(256, 256, 1): 0.5, ...}}. */
  public static List<Bucket> parseBuckets(String literal) {
    List<Bucket> out = new ArrayList<>();
    Matcher m = BUCKET.matcher(literal);
    int consumed = 0;
    while (m.find()) {
      try {
        out.add(new Bucket(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3)), Double.parseDouble(m.group(4))));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--random-mm-bucket-config: bad number in '"
            + m.group() + "'");
      }
      consumed++;
    }
    if (consumed == 0) {
      throw new IllegalArgumentException("--random-mm-bucket-config expects a map such as "
          + "'{(256, 256, 1): 0.5, (720, 1280, 1): 0.5}', got '" + literal + "'");
    }
    return out;
  }

  /** Parses {@code {"image": 3, "video": 0}}. */
  public static Map<String, Integer> parseLimits(String json) {
    Matcher m = Pattern.compile("\"(\\w+)\"\\s*:\\s*(\\d+)").matcher(json);
    Map<String, Integer> out = new LinkedHashMap<>();
    while (m.find()) {
      out.put(m.group(1).toLowerCase(Locale.ROOT), Integer.parseInt(m.group(2)));
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("--random-mm-limit-mm-per-prompt expects JSON such as "
          + "'{\"image\": 3, \"video\": 0}', got '" + json + "'");
    }
    return out;
  }

  @Override
  public String name() {
    return "random-mm";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    List<SampleRequest> texts = text.numPrompts(common.numPrompts()).seed(common.seed())
        .requestIdPrefix(common.requestIdPrefix()).sample(tokenizer).requests();
    int low = (int) Math.floor(baseItems * (1 - itemsRangeRatio));
    int high = (int) Math.ceil(baseItems * (1 + itemsRangeRatio));
    int maxTotal = limits.values().stream().mapToInt(Integer::intValue).sum();
    if (low > maxTotal) {
      throw new IllegalArgumentException("random-mm: at least " + low + " items per request "
          + "but the per-prompt limits " + limits + " allow only " + maxTotal);
    }
    SplittableRandom counts = Sampling.rng(common.seed(), Sampling.Stream.PICK);
    List<SampleRequest> requests = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      int items = counts.nextInt(low, high + 1);
      SplittableRandom rng = Sampling.rng(common.seed(), Sampling.Stream.TOKENS, i);
      List<Map<String, Object>> parts = new ArrayList<>(items);
      Map<String, Integer> used = new LinkedHashMap<>();
      for (int k = 0; k < items; k++) {
        Bucket b = pick(rng, used);
        if (b == null) {
          break; // every modality reached its limit
        }
        used.merge(b.modality(), 1, Integer::sum);
        parts.add(imagePart(b.width(), b.height(), rng));
      }
      SampleRequest t = texts.get(i);
      requests.add(new SampleRequest(t.prompt(), t.promptLen(), t.expectedOutputLen(),
          t.requestId(), Map.of(MM_CONTENT, List.copyOf(parts))));
    }
    return Sampling.done(name(), requests, low + ".." + high + " images per request");
  }

  private Bucket pick(SplittableRandom rng, Map<String, Integer> used) {
    List<Bucket> open = buckets.stream().filter(b ->
        used.getOrDefault(b.modality(), 0) < limits.getOrDefault(b.modality(), 0)).toList();
    if (open.isEmpty()) {
      return null;
    }
    double total = open.stream().mapToDouble(Bucket::probability).sum();
    double x = rng.nextDouble() * total;
    for (Bucket b : open) {
      x -= b.probability();
      if (x < 0) {
        return b;
      }
    }
    return open.get(open.size() - 1);
  }

  /** Random RGB pixels as a JPEG data URL, the part vLLM sends for a PIL image. */
  static Map<String, Object> imagePart(int width, int height, SplittableRandom rng) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, rng.nextInt(1 << 24));
      }
    }
    ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, "jpeg", jpeg)) {
        throw new IllegalStateException("this JVM has no JPEG writer");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String url = "data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg.toByteArray());
    Map<String, Object> part = new LinkedHashMap<>(2);
    part.put("type", "image_url");
    part.put("image_url", Map.of("url", url));
    return java.util.Collections.unmodifiableMap(part);
  }

  @Override
  public String toString() {
    return "random-mm{" + text + ", baseItems=" + baseItems + ", itemsRangeRatio="
        + itemsRangeRatio + ", limits=" + limits + ", buckets=" + buckets + ", " + common + "}";
  }
}
