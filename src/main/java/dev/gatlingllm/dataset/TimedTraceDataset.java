package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * A recorded workload to replay ({@code --dataset-name timed_trace}): a JSON Lines file with
 * one request a line, Mooncake's trace format among them:
 *
 * <pre>
 * {"timestamp": 0, "input_length": 40, "output_length": 8, "hash_ids": [0, 1, 2]}
 * {"timestamp": 250, "input_length": 56, "output_length": 4, "hash_ids": [0, 1, 3, 4]}
 * </pre>
 *
 * <p>Each hash id stands for one block of {@link #chunkHashSize} prompt tokens
 * ({@code --timed-trace-chunk-hash-size}, default 16): the same id gives the same block of
 * tokens in every request, so requests that shared a prefix in the recording share it here,
 * and the server's prefix cache is hit as it was. A prompt is its blocks in order, cut to the
 * line's input length (a last, partial block is the start of its block); tokens the hash ids
 * do not cover are random and the request's own. Blocks are built from single-word tokens that
 * encode back to themselves, so the prompt text has exactly the input length and a shared
 * block is a shared text prefix.
 *
 * <p>The line's timestamp times {@link #secMultiplier} ({@code --timed-trace-sec-multiplier},
 * default 1) is the request's arrival in seconds, kept in {@value #TIMESTAMP} and returned by
 * {@link Samples#arrivalSeconds()}: only the gaps matter, so a trace in milliseconds (as
 * Mooncake's) is replayed in real time with a multiplier of 0.001, and twice as fast with
 * 0.0005. The field names can be changed ({@code --timed-trace-label-*}). A trace keeps its
 * order: the first {@link #numPrompts} lines are sent, never shuffled nor repeated.
 */
public final class TimedTraceDataset extends DatasetBuilder<TimedTraceDataset> {

  public static final int DEFAULT_CHUNK_HASH_SIZE = 16;
  public static final double DEFAULT_SEC_MULTIPLIER = 1.0;
  /** Feeder key of the request's arrival in seconds (timestamp × multiplier, a Double). */
  public static final String TIMESTAMP = "timestamp";

  /** The field names of a line, vLLM's {@code --timed-trace-label-*} flags. */
  public record Labels(String timestamp, String inputLength, String outputLength,
      String hashIds) {
    /** Mooncake's names, vLLM's defaults. */
    public static final Labels DEFAULTS =
        new Labels("timestamp", "input_length", "output_length", "hash_ids");

    public Labels {
      for (String label : new String[] {timestamp, inputLength, outputLength, hashIds}) {
        if (label == null || label.isBlank()) {
          throw new IllegalArgumentException("a timed-trace label must not be blank");
        }
      }
    }
  }

  /** Word tokens ("Ġthe" and the like) to pick from; fewer means the vocabulary lacks them. */
  private static final int WORD_TOKENS = 4096;
  private static final int MIN_WORD_TOKENS = 64;
  private static final Pattern WORD = Pattern.compile("\\s\\p{L}+");

  private final Path path;
  private final int chunkHashSize;
  private final double secMultiplier;
  private final Labels labels;

  TimedTraceDataset(Path path) {
    this(Common.DEFAULTS, path, DEFAULT_CHUNK_HASH_SIZE, DEFAULT_SEC_MULTIPLIER, Labels.DEFAULTS);
  }

  private TimedTraceDataset(Common common, Path path, int chunkHashSize, double secMultiplier,
      Labels labels) {
    super(common);
    this.path = Objects.requireNonNull(path, "path");
    this.chunkHashSize = chunkHashSize;
    this.secMultiplier = secMultiplier;
    this.labels = labels;
  }

  @Override
  TimedTraceDataset with(Common common) {
    return new TimedTraceDataset(common, path, chunkHashSize, secMultiplier, labels);
  }

  /** Tokens per hash id ({@code --timed-trace-chunk-hash-size}, default 16). */
  public TimedTraceDataset chunkHashSize(int tokens) {
    atLeast("timed-trace-chunk-hash-size", tokens, 1);
    return new TimedTraceDataset(common, path, tokens, secMultiplier, labels);
  }

  /**
   * Seconds per timestamp unit ({@code --timed-trace-sec-multiplier}, default 1): 0.001 for
   * a trace in milliseconds; a smaller value replays faster.
   */
  public TimedTraceDataset secMultiplier(double factor) {
    if (!(factor > 0 && Double.isFinite(factor))) {
      throw new IllegalArgumentException("timed-trace-sec-multiplier must be a number > 0, got "
          + factor);
    }
    return new TimedTraceDataset(common, path, chunkHashSize, factor, labels);
  }

  /** The field names of a line ({@code --timed-trace-label-*}). */
  public TimedTraceDataset labels(Labels names) {
    return new TimedTraceDataset(common, path, chunkHashSize, secMultiplier,
        Objects.requireNonNull(names, "labels"));
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }

  /** The configured {@code chunkHashSize}. */
  public int chunkHashSize() {
    return chunkHashSize;
  }

  /** The configured {@code secMultiplier}. */
  public double secMultiplier() {
    return secMultiplier;
  }

  /** The configured {@code labels}. */
  public Labels labels() {
    return labels;
  }

  @Override
  public String name() {
    return "timed_trace";
  }

  /** One line: raw timestamp, lengths and hash ids. */
  private record Line(double timestamp, int inputLength, int outputLength, long[] hashIds) {}

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    DataFiles.requireFile(path, "Timed trace");
    List<Line> lines = new ArrayList<>();
    DataFiles.jsonLines(path, "Timed trace", (number, node) -> {
      if (lines.size() < common.numPrompts()) {
        Line line = parse(node, number);
        if (!lines.isEmpty() && line.timestamp() < lines.get(lines.size() - 1).timestamp()) {
          throw new DatasetException("Timed trace file " + path + " line " + number + ": \""
              + labels.timestamp() + "\" " + line.timestamp() + " is before the previous line's "
              + lines.get(lines.size() - 1).timestamp() + "; a trace must be in time order");
        }
        lines.add(line);
      }
    });
    if (lines.isEmpty()) {
      throw new DatasetException("Timed trace file " + path + " has no line (expected one JSON "
          + "object per line with \"" + labels.timestamp() + "\", \"" + labels.inputLength()
          + "\", \"" + labels.outputLength() + "\" and \"" + labels.hashIds() + "\")");
    }
    int[] words = wordTokens(tokenizer);
    int specials = tokenizer.numSpecialTokensToAdd();
    Map<Long, int[]> blocks = new HashMap<>();
    List<SampleRequest> requests = new ArrayList<>(lines.size());
    int exact = 0;
    for (int i = 0; i < lines.size(); i++) {
      Line line = lines.get(i);
      int target = Math.max(1, line.inputLength() - specials);
      int[] ids = promptIds(line.hashIds(), target, words, blocks, i);
      TokenPrompts.Prompt prompt = TokenPrompts.exactLength(tokenizer, ids, target, words,
          Sampling.rng(common.seed(), Sampling.Stream.TOKENS, i));
      exact += prompt.tokens() == target ? 1 : 0;
      requests.add(new SampleRequest(prompt.text(), prompt.tokens() + specials,
          Math.max(1, line.outputLength()), common.id(i),
          Map.of(TIMESTAMP, line.timestamp() * secMultiplier)));
    }
    return Sampling.done(name(), requests, blocks.size() + " distinct blocks of "
        + chunkHashSize + " tokens, " + exact + "/" + lines.size() + " at exact input length"
        + (lines.size() < common.numPrompts() ? "; the trace has only " + lines.size()
            + " lines" : ""));
  }

  /**
   * The prompt's token ids: the hash ids' blocks in order, cut to {@code length}, then random
   * tokens of request {@code index} when the blocks are too few.
   */
  private int[] promptIds(long[] hashIds, int length, int[] words, Map<Long, int[]> blocks,
      int index) {
    int[] ids = new int[length];
    int filled = 0;
    for (int b = 0; b < hashIds.length && filled < length; b++) {
      int[] block = blocks.computeIfAbsent(hashIds[b], id -> block(id, words));
      int take = Math.min(block.length, length - filled);
      System.arraycopy(block, 0, ids, filled, take);
      filled += take;
    }
    SplittableRandom own = Sampling.rng(common.seed(), Sampling.Stream.PICK, index);
    for (; filled < length; filled++) {
      ids[filled] = words[own.nextInt(words.length)];
    }
    return ids;
  }

  /** The block of a hash id: the same for the same id and seed, whatever the request. */
  int[] block(long hashId, int[] words) {
    SplittableRandom rng = Sampling.rng(common.seed(), Sampling.Stream.LENGTHS, hashId);
    int[] block = new int[chunkHashSize];
    for (int j = 0; j < chunkHashSize; j++) {
      block[j] = words[rng.nextInt(words.length)];
    }
    return block;
  }

  /**
   * Tokens that are a space and a word and encode back to themselves: a sequence of them
   * decodes to text that encodes to the same sequence, so lengths are exact and a shared block
   * is a shared text prefix. All regular tokens when the vocabulary has too few of them.
   */
  static int[] wordTokens(Tokenizer tokenizer) {
    int[] regular = tokenizer.regularTokenIds();
    int[] found = new int[WORD_TOKENS];
    int n = 0;
    for (int k = 0; k < regular.length && n < WORD_TOKENS; k++) {
      int id = regular[k];
      String text = tokenizer.decode(new int[] {id});
      if (WORD.matcher(text).matches() && Arrays.equals(tokenizer.encode(text), new int[] {id})) {
        found[n++] = id;
      }
    }
    return n >= MIN_WORD_TOKENS ? Arrays.copyOf(found, n) : regular;
  }

  private Line parse(JsonNode node, int number) {
    String where = "Timed trace file " + path + " line " + number;
    if (!node.isObject()) {
      throw new DatasetException(where + " is not a JSON object");
    }
    JsonNode time = node.get(labels.timestamp());
    if (time == null || !time.isNumber() || !Double.isFinite(time.asDouble())) {
      throw new DatasetException(where + ": \"" + labels.timestamp() + "\" must be a number, got "
          + time);
    }
    int input = count(node, labels.inputLength(), where, 1);
    int output = count(node, labels.outputLength(), where, 0);
    JsonNode hashes = node.get(labels.hashIds());
    long[] ids;
    if (hashes == null || hashes.isNull()) {
      ids = new long[0];
    } else if (hashes.isArray()) {
      ids = new long[hashes.size()];
      for (int k = 0; k < ids.length; k++) {
        JsonNode id = hashes.get(k);
        if (!id.canConvertToExactIntegral() || !id.canConvertToLong()) {
          throw new DatasetException(where + ": \"" + labels.hashIds()
              + "\" must hold whole numbers, got " + id);
        }
        ids[k] = id.asLong();
      }
    } else {
      throw new DatasetException(where + ": \"" + labels.hashIds()
          + "\" must be an array of whole numbers, got " + hashes);
    }
    return new Line(time.asDouble(), input, output, ids);
  }

  private static int count(JsonNode node, String field, String where, int min) {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToExactIntegral() || !value.canConvertToInt()
        || value.asInt() < min) {
      throw new DatasetException(where + ": \"" + field + "\" must be a whole number >= " + min
          + ", got " + value);
    }
    return value.asInt();
  }

  @Override
  public String toString() {
    return "timed_trace{path=" + path + ", chunkHashSize=" + chunkHashSize + ", secMultiplier="
        + secMultiplier + ", labels=" + labels + ", " + common + "}";
  }
}
