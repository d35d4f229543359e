package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Your own prompts with images or audio clips ({@code --dataset-name custom_image} or
 * {@code custom_audio}): a JSON Lines file whose lines are the custom dataset's plus the media
 * files, every one of which is sent with the prompt:
 *
 * <pre>
 * {"prompt": "What is in this picture?", "image_files": ["photos/cat.png"]}
 * {"prompt": "Transcribe and summarise.", "audio_files": ["clips/call.wav"], "output_len": 64}
 * </pre>
 *
 * <p>Images become {@code image_url} chat parts: a path is sent as a {@code file://} URL for
 * the server to read (vLLM's {@code --allowed-local-media-path}), and http(s) and data URLs
 * as they are, unless {@link #ensureClientSideData} ({@code --custom-ensure-client-side-data})
 * has the files read here and sent as JPEG data URLs. Audio clips are always read here and
 * sent as {@code input_audio} parts (base64, their file extension as {@code format}). Paths are
 * relative to the working directory. Output lengths, order and repeats are the custom
 * dataset's; the media go to the feeder key {@value RandomMultiModalDataset#MM_CONTENT}, for
 * {@code chat(...)}.
 */
public final class CustomMediaDataset extends DatasetBuilder<CustomMediaDataset> {

  /** Which media a line carries. */
  public enum Media {
    IMAGE("custom_image", "image_files"),
    AUDIO("custom_audio", "audio_files");

    private final String datasetName;
    private final String field;

    Media(String datasetName, String field) {
      this.datasetName = datasetName;
      this.field = field;
    }

    /** vLLM's {@code --dataset-name}. */
    public String datasetName() {
      return datasetName;
    }

    /** The JSONL field listing a line's files. */
    public String field() {
      return field;
    }
  }

  private final Path path;
  private final Media media;
  private final Integer outputLen;
  private final boolean clientSide;

  CustomMediaDataset(Path path, Media media) {
    this(Common.DEFAULTS, path, media, null, false);
  }

  private CustomMediaDataset(Common common, Path path, Media media, Integer outputLen,
      boolean clientSide) {
    super(common);
    this.path = path;
    this.media = media;
    this.outputLen = outputLen;
    this.clientSide = clientSide;
  }

  @Override
  CustomMediaDataset with(Common common) {
    return new CustomMediaDataset(common, path, media, outputLen, clientSide);
  }

  /** Output length for every request, over any per-line value ({@code --custom-output-len}). */
  public CustomMediaDataset outputLen(int tokens) {
    atLeast("custom-output-len", tokens, 1);
    return new CustomMediaDataset(common, path, media, tokens, clientSide);
  }

  /**
   * Read image files here and send them as data URLs instead of {@code file://} URLs
   * ({@code --custom-ensure-client-side-data}); audio is always read here.
   */
  public CustomMediaDataset ensureClientSideData(boolean value) {
    return new CustomMediaDataset(common, path, media, outputLen, value);
  }

  /** Use every line once ({@code --num-prompts 0}). */
  public CustomMediaDataset allPrompts() {
    return with(common.withNumPrompts(0));
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }

  /** The configured {@code media}. */
  public Media media() {
    return media;
  }

  @Override
  public String name() {
    return media.datasetName();
  }

  /** One line: the prompt, its own output length or null, its files. */
  private record Line(String prompt, Integer outputLen, List<String> files) {}

  @Override
  public Samples sample(Tokenizer tokenizer) {
    String what = media.datasetName() + " dataset";
    DataFiles.requireFile(path, what);
    List<Line> lines = new ArrayList<>();
    DataFiles.jsonLines(path, what, (number, node) -> lines.add(parse(node, number)));
    if (lines.isEmpty()) {
      throw new DatasetException(what + " file " + path + " has no line (expected JSON objects "
          + "with \"prompt\" and \"" + media.field() + "\")");
    }
    int wanted = common.order(lines);
    List<SampleRequest> requests = new ArrayList<>(wanted);
    for (int i = 0; i < lines.size() && requests.size() < wanted; i++) {
      Line line = lines.get(i);
      int output = outputLen != null ? outputLen
          : line.outputLen() != null ? line.outputLen() : CustomDataset.DEFAULT_OUTPUT_LEN;
      List<Map<String, Object>> parts = new ArrayList<>();
      for (String file : line.files()) {
        parts.add(part(file, what + " file " + path + ": " + file));
      }
      requests.add(new SampleRequest(line.prompt(),
          tokenizer.countWithSpecialTokens(line.prompt()), output, common.id(i),
          Map.of(RandomMultiModalDataset.MM_CONTENT, List.copyOf(parts))));
    }
    int copies = common.numPrompts() == 0 ? 0
        : Sampling.oversample(requests, common, what + " file " + path);
    return Sampling.done(name(), requests, lines.size() + " lines, " + copies
        + " repeated to reach " + wanted);
  }

  private Map<String, Object> part(String file, String where) {
    boolean remote = file.startsWith("http://") || file.startsWith("https://")
        || file.startsWith("data:");
    if (media == Media.IMAGE) {
      if (remote || !clientSide) {
        return HfMedia.imagePart(remote || file.startsWith("file://") ? file
            : Path.of(file).toAbsolutePath().toUri().toString(), where);
      }
      return HfMedia.imagePart(read(file, where), where);
    }
    if (remote) {
      throw new DatasetException(where + ": audio files are read here and must be local paths");
    }
    int dot = file.lastIndexOf('.');
    String format = dot < 0 ? "wav" : file.substring(dot + 1).toLowerCase(Locale.ROOT);
    return Map.of("type", "input_audio", "input_audio", Map.of(
        "data", Base64.getEncoder().encodeToString(read(file, where)), "format", format));
  }

  private static byte[] read(String file, String where) {
    Path local = Path.of(file.startsWith("file://") ? file.substring("file://".length()) : file);
    if (!Files.isRegularFile(local)) {
      throw new DatasetException(where + " does not exist (paths are relative to "
          + Path.of("").toAbsolutePath() + ")");
    }
    try {
      return Files.readAllBytes(local);
    } catch (IOException e) {
      throw new DatasetException(where + " cannot be read: " + e.getMessage(), e);
    }
  }

  private Line parse(JsonNode node, int number) {
    String where = media.datasetName() + " file " + path + " line " + number;
    if (!node.isObject()) {
      throw new DatasetException(where + " is not a JSON object");
    }
    String prompt = DataFiles.text(node, "prompt");
    if (prompt == null) {
      throw new DatasetException(where + " has no string \"prompt\" field");
    }
    JsonNode files = node.get(media.field());
    List<String> names = new ArrayList<>();
    if (files != null && files.isTextual()) {
      names.add(files.asText());
    } else if (files != null && files.isArray()) {
      for (JsonNode f : files) {
        if (!f.isTextual() || f.asText().isBlank()) {
          throw new DatasetException(where + ": \"" + media.field() + "\" must list file paths "
              + "or URLs, got " + f);
        }
        names.add(f.asText());
      }
    }
    if (names.isEmpty()) {
      throw new DatasetException(where + " has no \"" + media.field() + "\" (a list of file "
          + "paths or URLs)");
    }
    JsonNode output = node.get(CustomDataset.OUTPUT_LEN_FIELD);
    if (output == null || output.isNull()) {
      return new Line(prompt, null, names);
    }
    if (!output.canConvertToExactIntegral() || output.asInt() < 1) {
      throw new DatasetException(where + ": \"" + CustomDataset.OUTPUT_LEN_FIELD
          + "\" must be a whole number >= 1, got " + output);
    }
    return new Line(prompt, output.asInt(), names);
  }

  @Override
  public String toString() {
    return media.datasetName() + "{path=" + path + ", outputLen=" + outputLen
        + ", ensureClientSideData=" + clientSide + ", " + common + "}";
  }
}
