package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Datasets from the Hugging Face Hub or local files ({@code --dataset-name hf}), mapped to
 * prompts the way vLLM maps the datasets it knows:
 *
 * <table>
 *   <caption>Supported datasets</caption>
 *   <tr><th>ids</th><th>columns</th><th>prompt</th><th>output length</th></tr>
 *   <tr><td>Aeala/ShareGPT_Vicuna_unfiltered</td><td>conversations</td><td>first turn</td>
 *       <td>tokens of the second turn, pruned like ShareGPT</td></tr>
 *   <tr><td>openai/openai_humaneval</td><td>task_id, prompt, canonical_solution</td>
 *       <td>prompt</td><td>tokens of canonical_solution</td></tr>
 *   <tr><td>openai/gsm8k</td><td>question, answer</td><td>question</td>
 *       <td>tokens of answer</td></tr>
 *   <tr><td>lmms-lab/LLaVA-OneVision-Data</td><td>conversations, image</td>
 *       <td>first turn + the image</td><td>as ShareGPT</td></tr>
 *   <tr><td>lmarena-ai/VisionArena-Chat, lmarena-ai/vision-arena-bench-v0.1</td>
 *       <td>conversation (or turns), images</td><td>first message + first image</td>
 *       <td>128</td></tr>
 *   <tr><td>yale-nlp/MMVU (split validation)</td><td>question, choices, video</td>
 *       <td>question and "A.choice" list + the video</td><td>128</td></tr>
 *   <tr><td>Lin-Chen/MMStar (split val)</td><td>question, image</td>
 *       <td>question before "Options:" + the image</td><td>128</td></tr>
 *   <tr><td>likaixin/InstructCoder</td><td>input, instruction</td>
 *       <td>code, instruction, "output only the code"</td><td>200</td></tr>
 *   <tr><td>AI-MO/aimo-validation-aime, AI-MO/NuminaMath-1.5, AI-MO/NuminaMath-CoT</td>
 *       <td>problem, solution</td><td>problem</td>
 *       <td>tokens of the solution; pruned at prompt &gt; 2048 or total &gt; 32000</td></tr>
 *   <tr><td>philschmid/mt-bench</td><td>turns</td><td>first turn</td><td>256</td></tr>
 *   <tr><td>vdaita/edit_5k_char, vdaita/edit_10k_char</td>
 *       <td>code, change_request, norm_distance</td><td>code edit request</td>
 *       <td>4000; rows outside the distance range are skipped</td></tr>
 *   <tr><td>zed-industries/zeta</td><td>events, input, output</td>
 *       <td>next-edit prompt of the edits and the excerpt</td>
 *       <td>tokens of the output from its editable-region marker</td></tr>
 *   <tr><td>openslr/librispeech_asr, facebook/voxpopuli, LIUM/tedlium, edinburghcstr/ami,
 *       speechcolab/gigaspeech, kensho/spgispeech</td><td>audio</td>
 *       <td>Whisper's transcription preamble + the clip as WAV; clips outside
 *       {@link #asrMinAudioLenSec} / {@link #asrMaxAudioLenSec} left out</td>
 *       <td>128</td></tr>
 *   <tr><td>mgoin/mlperf-inference-llama2-data, mgoin/mlperf-inference-llama3.1-data</td>
 *       <td>system_prompt, question, output</td><td>system prompt, blank line, question</td>
 *       <td>tokens of the output (no special tokens); pruned like ShareGPT, even with an
 *       override</td></tr>
 * </table>
 *
 * <p>Images and videos go to the feeder key {@value HfKind#MM_CONTENT} as OpenAI chat content
 * parts (images re-encoded as JPEG data URLs, like {@code random-mm}); ASR clips go to
 * {@value HfKind#AUDIO} as WAV bytes, for {@code LlmDsl.audio(..).fromDataset()}.
 *
 * <p>The source is {@code --dataset-path}: an existing local {@code .parquet}, {@code .jsonl}
 * or {@code .json} file (or a folder of them), or else a hub dataset id, whose Parquet files
 * for {@link #subset} and {@link #split} (default: the split vLLM reads for that dataset) are
 * downloaded once through {@link HubClient}. For a local file the mapping comes from
 * {@link #hfName}, or from the columns the file has. An id not in the table is refused with
 * the list of supported ones. Rows are shuffled with the seed (unless
 * {@link #disableShuffle}), taken until {@link #numPrompts} are usable, and repeated at random
 * when there are too few (unless {@link #noOversample}). {@link #outputLen} replaces every
 * output length and turns pruning off (except for MLPerf, as in vLLM). No chat template is
 * applied (see {@link CustomDataset}).
 */
public final class HfDataset extends DatasetBuilder<HfDataset> {

  private static final Logger LOG = LoggerFactory.getLogger(HfDataset.class);

  /** The hub split most datasets are read from (MMVU and MMStar have their own). */
  public static final String DEFAULT_SPLIT = "train";
  public static final String DEFAULT_SUBSET = "default";

  private final String path;
  private final String subset;
  private final String split;
  private final String hfName;
  private final Integer outputLen;
  private final double minDistance;
  private final double maxDistance;
  private final HubClient hub;
  private final double minAudioSec;
  private final double maxAudioSec;
  /** vllm-bench's {@code --hf-text-column}: the prompt's column; null: the dataset's reader. */
  private final String textColumn;

  HfDataset(String path) {
    this(Common.DEFAULTS, path, null, null, null, null, 0.0, 1.0, null, 0.0,
        Double.POSITIVE_INFINITY, null);
  }

  private HfDataset(Common common, String path, String subset, String split, String hfName,
      Integer outputLen, double minDistance, double maxDistance, HubClient hub,
      double minAudioSec, double maxAudioSec, String textColumn) {
    super(common);
    this.textColumn = textColumn;
    this.path = path;
    this.subset = subset;
    this.split = split;
    this.hfName = hfName;
    this.outputLen = outputLen;
    this.minDistance = minDistance;
    this.maxDistance = maxDistance;
    this.hub = hub;
    this.minAudioSec = minAudioSec;
    this.maxAudioSec = maxAudioSec;
  }

  @Override
  HfDataset with(Common common) {
    return new HfDataset(common, path, subset, split, hfName, outputLen, minDistance,
        maxDistance, hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** Dataset configuration on the hub ({@code --hf-subset}, default "default"). */
  public HfDataset subset(String name) {
    return new HfDataset(common, path, blankToNull(name), split, hfName, outputLen, minDistance,
        maxDistance, hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** Split on the hub ({@code --hf-split}; default the dataset's, "train" for most). */
  public HfDataset split(String name) {
    return new HfDataset(common, path, subset, blankToNull(name), hfName, outputLen,
        minDistance, maxDistance, hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** Hub id whose mapping a local file follows ({@code --hf-name}). */
  public HfDataset hfName(String id) {
    return new HfDataset(common, path, subset, split, blankToNull(id), outputLen, minDistance,
        maxDistance, hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** Output length for every request ({@code --hf-output-len}); turns pruning off. */
  public HfDataset outputLen(int tokens) {
    atLeast("hf-output-len", tokens, 1);
    return new HfDataset(common, path, subset, split, hfName, tokens, minDistance, maxDistance,
        hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** Smallest Blazedit {@code norm_distance} kept ({@code --blazedit-min-distance}, 0). */
  public HfDataset blazeditMinDistance(double value) {
    checkDistance("blazedit-min-distance", value);
    return new HfDataset(common, path, subset, split, hfName, outputLen, value, maxDistance, hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** Largest Blazedit {@code norm_distance} kept ({@code --blazedit-max-distance}, 1). */
  public HfDataset blazeditMaxDistance(double value) {
    checkDistance("blazedit-max-distance", value);
    return new HfDataset(common, path, subset, split, hfName, outputLen, minDistance, value, hub, minAudioSec,
        maxAudioSec, textColumn);
  }

  /**
   * ASR: the shortest clip kept, in seconds ({@code --asr-min-audio-len-sec}, default 0);
   * shorter ones are left out.
   */
  public HfDataset asrMinAudioLenSec(double seconds) {
    checkSeconds("asr-min-audio-len-sec", seconds);
    return new HfDataset(common, path, subset, split, hfName, outputLen, minDistance,
        maxDistance, hub, seconds, maxAudioSec, textColumn);
  }

  /**
   * ASR: the longest clip kept, in seconds ({@code --asr-max-audio-len-sec}, default
   * unlimited); longer ones are left out (Whisper itself takes 30 s).
   */
  public HfDataset asrMaxAudioLenSec(double seconds) {
    checkSeconds("asr-max-audio-len-sec", seconds);
    return new HfDataset(common, path, subset, split, hfName, outputLen, minDistance,
        maxDistance, hub, minAudioSec, seconds, textColumn);
  }

  private static void checkSeconds(String option, double seconds) {
    if (!(seconds >= 0)) {
      throw new IllegalArgumentException(option + " must be a number of seconds >= 0, got "
          + seconds);
    }
  }

  /**
   * The column that holds the prompt ({@code --hf-text-column}, vllm-bench): any dataset is
   * read with vllm-bench's generic reader instead of its own (see {@link HfTextColumn}).
   */
  public HfDataset textColumn(String column) {
    if (column == null || column.isBlank()) {
      throw new IllegalArgumentException("hf-text-column must name a column, got '" + column
          + "'");
    }
    return new HfDataset(common, path, subset, split, hfName, outputLen, minDistance,
        maxDistance, hub, minAudioSec, maxAudioSec, column.strip());
  }

  /** The hub client for downloads; default {@link HubClient#fromEnvironment()}. */
  HfDataset hub(HubClient client) {
    if (client == null) {
      throw new IllegalArgumentException("hub client must not be null");
    }
    return new HfDataset(common, path, subset, split, hfName, outputLen, minDistance,
        maxDistance, client, minAudioSec,
        maxAudioSec, textColumn);
  }

  /** The configured {@code path}. */
  public String path() {
    return path;
  }

  @Override
  public String name() {
    return "hf";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("The hf dataset needs --dataset-path: a hub dataset id "
          + "such as likaixin/InstructCoder, or a local .parquet/.jsonl/.json file");
    }
    if (minAudioSec > maxAudioSec) {
      throw new IllegalArgumentException("asr-min-audio-len-sec " + minAudioSec
          + " is larger than asr-max-audio-len-sec " + maxAudioSec);
    }
    if (minDistance > maxDistance) {
      throw new IllegalArgumentException("blazedit-min-distance " + minDistance
          + " is larger than blazedit-max-distance " + maxDistance);
    }
    Path local = Path.of(path);
    List<Path> files;
    HfKind kind;
    String source;
    if (textColumn != null) {
      return byTextColumn(tokenizer, local);
    }
    if (Files.exists(local)) {
      files = localFiles(local);
      kind = hfName != null ? known(hfName) : detect(files.get(0));
      source = local.toString();
    } else {
      if (looksLikeFile(path)) {
        throw new DatasetException("hf dataset file " + local.toAbsolutePath()
            + " does not exist");
      }
      kind = known(hfName != null ? hfName : path);
      HubClient client = hub != null ? hub : HubClient.fromEnvironment();
      String hubSplit = split != null ? split : kind.defaultSplit();
      files = client.datasetParquetFiles(path, subset != null ? subset : DEFAULT_SUBSET,
          hubSplit);
      source = path + " (" + (subset != null ? subset : DEFAULT_SUBSET) + "/" + hubSplit + ")";
    }

    List<HfKind.Candidate> candidates = new ArrayList<>();
    List<String> wanted = new ArrayList<>(kind.columns());
    wanted.addAll(kind.optionalColumns());
    for (Path file : files) {
      int[] rowNumber = {0};
      rows(file, wanted, row -> {
        rowNumber[0]++;
        HfKind.Candidate c = kind.candidate(row, "hf dataset file " + file + " row "
            + rowNumber[0]);
        if (c != null) {
          candidates.add(c);
        }
      });
    }
    if (candidates.isEmpty()) {
      throw new DatasetException("hf dataset " + source + " has no row usable as "
          + kind.label() + " (needs columns " + kind.columns() + ")");
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(candidates, common.seed());
    }
    List<SampleRequest> requests = new ArrayList<>();
    Map<String, Integer> skipped = new TreeMap<>();
    for (HfKind.Candidate c : candidates) {
      if (requests.size() >= common.numPrompts()) {
        break;
      }
      if (c.skipped() != null) {
        skipped.merge(c.skipped(), 1, Integer::sum);
        continue;
      }
      if (kind == HfKind.BLAZEDIT && (c.measure() < minDistance || c.measure() > maxDistance)) {
        skipped.merge("norm_distance outside [" + minDistance + ", " + maxDistance + "]", 1,
            Integer::sum);
        continue;
      }
      if (kind == HfKind.ASR && (c.measure() < minAudioSec || c.measure() > maxAudioSec)) {
        skipped.merge("audio outside [" + minAudioSec + ", " + maxAudioSec + "] s", 1,
            Integer::sum);
        continue;
      }
      int promptLen = tokenizer.countWithSpecialTokens(c.prompt());
      Integer output = outputLength(kind, c, promptLen, tokenizer);
      if (output == null) {
        skipped.merge("prompt under 4 or over " + kind.maxPromptLen() + " tokens, reply under "
            + "4, or total over " + kind.maxTotalLen(), 1, Integer::sum);
        continue;
      }
      requests.add(new SampleRequest(c.prompt(), promptLen, output,
          common.id(requests.size()), c.extras().get()));
    }
    if (requests.isEmpty()) {
      throw new DatasetException("hf dataset " + source + ": all " + candidates.size()
          + " rows were filtered out (" + skipped + "); nothing is left to sample");
    }
    int copies = Sampling.oversample(requests, common, "hf dataset " + source);
    int filtered = skipped.values().stream().mapToInt(Integer::intValue).sum();
    return Sampling.done(name(), requests, kind.label() + " from " + source + ", "
        + candidates.size() + " rows, " + filtered + " filtered"
        + (skipped.isEmpty() ? "" : " " + skipped) + ", " + copies + " repeated");
  }

  /**
   * {@code --hf-text-column}: the rows of a local file or folder, or of the hub dataset's
   * split ({@code --hf-split}, else {@value #DEFAULT_SPLIT}), read by that column.
   */
  private Samples byTextColumn(Tokenizer tokenizer, Path local) {
    List<Path> files;
    String source;
    if (Files.exists(local)) {
      files = localFiles(local);
      source = local.toString();
    } else {
      if (looksLikeFile(path)) {
        throw new DatasetException("hf dataset file " + local.toAbsolutePath()
            + " does not exist");
      }
      HubClient client = hub != null ? hub : HubClient.fromEnvironment();
      String hubSubset = subset != null ? subset : DEFAULT_SUBSET;
      String hubSplit = split != null ? split : DEFAULT_SPLIT;
      files = client.datasetParquetFiles(path, hubSubset, hubSplit);
      source = path + " (" + hubSubset + "/" + hubSplit + ")";
    }
    HfTextColumn reader = HfTextColumn.of(textColumn, columns(files.get(0)),
        "hf dataset " + source);
    List<HfKind.Candidate> candidates = new ArrayList<>();
    for (Path file : files) {
      rows(file, reader.columns(), row -> candidates.add(reader.candidate(row)));
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(candidates, common.seed());
    }
    List<SampleRequest> requests = new ArrayList<>();
    Map<String, Integer> skipped = new TreeMap<>();
    boolean defaultOutput = false;
    for (HfKind.Candidate c : candidates) {
      if (requests.size() >= common.numPrompts()) {
        break;
      }
      if (c.skipped() != null) {
        skipped.merge(c.skipped(), 1, Integer::sum);
        continue;
      }
      // vllm-bench counts the prompt without special tokens and drops the shortest
      int promptLen = tokenizer.count(c.prompt());
      if (promptLen < HfTextColumn.MIN_PROMPT_TOKENS) {
        skipped.merge("prompt under " + HfTextColumn.MIN_PROMPT_TOKENS + " tokens", 1,
            Integer::sum);
        continue;
      }
      int reply = c.reply() == null || c.reply().isEmpty() ? 0 : tokenizer.count(c.reply());
      defaultOutput |= outputLen == null && reply == 0;
      int output = outputLen != null ? outputLen
          : reply > 0 ? reply : HfTextColumn.DEFAULT_OUTPUT_LEN;
      requests.add(new SampleRequest(c.prompt(), promptLen, output, common.id(requests.size())));
    }
    if (requests.isEmpty()) {
      throw new DatasetException("hf dataset " + source + ": no row of its " + candidates.size()
          + " has a usable prompt in column '" + textColumn + "' (" + skipped + "); try "
          + "another --hf-text-column");
    }
    if (defaultOutput) {
      LOG.warn("hf dataset {}: no output column ({}) and no --hf-output-len: {} output tokens "
          + "where a row has no reply, as vllm-bench", source,
          String.join(", ", HfTextColumn.OUTPUT_COLUMNS), HfTextColumn.DEFAULT_OUTPUT_LEN);
    }
    int copies = Sampling.oversample(requests, common, "hf dataset " + source);
    int filtered = skipped.values().stream().mapToInt(Integer::intValue).sum();
    return Sampling.done(name(), requests, "column " + textColumn + " from " + source + ", "
        + candidates.size() + " rows, " + filtered + " filtered"
        + (skipped.isEmpty() ? "" : " " + skipped) + ", " + copies + " repeated");
  }

  /** The request's output length under the kind's rule, or null when vLLM prunes the row. */
  private Integer outputLength(HfKind kind, HfKind.Candidate c, int promptLen,
      Tokenizer tokenizer) {
    switch (kind.output()) {
      case FIXED:
        return outputLen != null ? outputLen : kind.defaultOutputLen();
      case REPLY_UNPRUNED:
        return outputLen != null ? outputLen
            : Math.max(1, tokenizer.countWithSpecialTokens(c.reply()));
      case REPLY_CHECKED:
        int output = outputLen != null ? outputLen : tokenizer.count(c.reply());
        return Sampling.isValidSequence(promptLen, output, 4, kind.maxPromptLen(),
            kind.maxTotalLen(), false) ? output : null;
      default:
        if (outputLen != null) {
          return outputLen;
        }
        int reply = tokenizer.countWithSpecialTokens(c.reply());
        return Sampling.isValidSequence(promptLen, reply, 4, kind.maxPromptLen(),
            kind.maxTotalLen(), false) ? reply : null;
    }
  }

  private static HfKind known(String id) {
    return HfKind.byId(id).orElseThrow(() -> new DatasetException("Unsupported Hugging Face "
        + "dataset '" + id + "'. Supported ids: " + HfKind.supportedIds() + ". For a local "
        + "file in one of these shapes, pass its path and --hf-name with one of these ids."));
  }

  private static HfKind detect(Path file) {
    List<String> columns = columns(file);
    return HfKind.byColumns(columns).orElseThrow(() -> new DatasetException("hf dataset file "
        + file + " has columns " + columns + ", which match no supported shape ("
        + HfKind.shapes() + "); set --hf-name to say which one it follows"));
  }

  private static List<Path> localFiles(Path local) {
    if (!Files.isDirectory(local)) {
      return List.of(local);
    }
    try (Stream<Path> entries = Files.list(local)) {
      List<Path> files = entries.filter(p -> Files.isRegularFile(p) && format(p).isPresent())
          .sorted().toList();
      if (files.isEmpty()) {
        throw new DatasetException("hf dataset folder " + local + " has no .parquet, .jsonl or "
            + ".json file");
      }
      return files;
    } catch (IOException e) {
      throw new DatasetException("Cannot list hf dataset folder " + local + ": " + e, e);
    }
  }

  private enum Format { PARQUET, JSONL, JSON }

  private static Optional<Format> format(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".parquet")) {
      return Optional.of(Format.PARQUET);
    }
    if (name.endsWith(".jsonl")) {
      return Optional.of(Format.JSONL);
    }
    if (name.endsWith(".json")) {
      return Optional.of(Format.JSON);
    }
    return Optional.empty();
  }

  private static boolean looksLikeFile(String path) {
    return format(Path.of(path)).isPresent() || path.startsWith(".") || path.startsWith("/")
        || path.contains("\\") || path.chars().filter(c -> c == '/').count() > 1;
  }

  private static Format requireFormat(Path file) {
    return format(file).orElseThrow(() -> new DatasetException("hf dataset file " + file
        + " is not .parquet, .jsonl or .json"));
  }

  private static List<String> columns(Path file) {
    if (requireFormat(file) == Format.PARQUET) {
      return ParquetRows.columns(file);
    }
    DataFiles.requireFile(file, "hf dataset");
    JsonNode first = DataFiles.firstJsonRecord(file, "hf dataset");
    List<String> columns = new ArrayList<>();
    if (first != null) {
      first.fieldNames().forEachRemaining(columns::add);
    }
    return columns;
  }

  @SuppressWarnings("unchecked")
  private static void rows(Path file, Collection<String> columns,
      Consumer<Map<String, Object>> sink) {
    DataFiles.requireFile(file, "hf dataset");
    DataFiles.JsonVisitor json = (position, node) -> {
      if (!node.isObject()) {
        throw new DatasetException("hf dataset file " + file + " row " + position
            + " is not a JSON object");
      }
      sink.accept(DataFiles.JSON.convertValue(node, Map.class));
    };
    switch (requireFormat(file)) {
      case PARQUET:
        ParquetRows.read(file, columns, sink);
        break;
      case JSONL:
        DataFiles.jsonLines(file, "hf dataset", json);
        break;
      default:
        DataFiles.jsonRecords(file, "hf dataset", json);
    }
  }

  private static void checkDistance(String flag, double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
      throw new IllegalArgumentException(flag + " must be in [0, 1], got " + value);
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  @Override
  public String toString() {
    return "hf{path=" + path + ", subset=" + subset + ", split=" + split + ", hfName=" + hfName
        + ", outputLen=" + outputLen + (textColumn == null ? "" : ", textColumn=" + textColumn)
        + ", " + common + "}";
  }
}
