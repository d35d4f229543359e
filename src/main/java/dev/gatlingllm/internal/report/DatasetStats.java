package dev.gatlingllm.internal.report;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What a sampled dataset will send, before anything is sent ({@code --dry-run},
 * {@code --plot-dataset-stats}): the number of requests, the prompt and output token
 * distributions with their histograms, and how much of the prompts an earlier prompt already
 * began with.
 *
 * <p>Prefix sharing is counted the way a server's prefix cache would reuse it: each prompt's
 * tokens are cut into blocks of {@value #BLOCK_TOKENS} (vLLM's default block size), each full
 * block identified by itself and every block before it; a block an earlier prompt already had
 * is shared. So the shared share is what an unbounded prefix cache of this sample would hit.
 *
 * @param requests      number of requests sampled
 * @param input         prompt lengths (the dataset's token counts)
 * @param output        output lengths asked for ({@code max_tokens})
 * @param prefixSharing null when not counted (no tokenizer) or when no prompt shares a block
 */
public record DatasetStats(int requests, Tokens input, Tokens output,
    PrefixSharing prefixSharing) {

  /** Tokens of a block of the prefix count, as vLLM's default KV-cache block. */
  public static final int BLOCK_TOKENS = 16;

  /** At most this many bars per histogram. */
  static final int MAX_BINS = 30;

  /**
   * One token-length distribution: numpy's percentiles (linear interpolation between closest
   * ranks) and a histogram of equal whole-token bins.
   */
  public record Tokens(int min, double mean, double p50, double p99, int max, long total,
      Histogram histogram) {}

  /**
   * Bars of {@code width} tokens from {@code start}: bar {@code i} counts the lengths in
   * {@code [start + i * width, start + (i + 1) * width)}.
   */
  public record Histogram(int start, int width, long[] counts) {}

  /**
   * @param sharedTokens   prompt tokens in blocks an earlier prompt already had
   * @param promptTokens   all prompt tokens, as tokenized for the count
   * @param sharingPrompts prompts whose first block an earlier prompt already had
   */
  public record PrefixSharing(long sharedTokens, long promptTokens, int sharingPrompts) {

    /** Shared tokens as a percentage of all prompt tokens. */
    public double sharedPercent() {
      return promptTokens == 0 ? 0 : 100.0 * sharedTokens / promptTokens;
    }
  }

  /**
   * One request of the sample as the statistics see it (the report names no dataset type).
   *
   * @param prompt    its text, for the prefix count
   * @param promptLen its prompt's tokens, as the dataset counted them
   * @param outputLen its output length asked for
   */
  public record Request(String prompt, int promptLen, int outputLen) { }

  /**
   * The statistics of {@code requests}; {@code encoder} gives a prompt's token ids for the
   * prefix count, or is null to skip it.
   *
   * @throws IllegalArgumentException when there is no request
   */
  public static DatasetStats of(List<Request> requests, Function<String, int[]> encoder) {
    if (requests.isEmpty()) {
      throw new IllegalArgumentException("the dataset gave no request");
    }
    int n = requests.size();
    int[] in = new int[n];
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      in[i] = requests.get(i).promptLen();
      out[i] = requests.get(i).outputLen();
    }
    PrefixSharing sharing = encoder == null ? null : prefixSharing(requests, encoder);
    return new DatasetStats(n, tokens(in), tokens(out),
        sharing == null || sharing.sharedTokens() == 0 ? null : sharing);
  }

  static Tokens tokens(int[] values) {
    int[] sorted = values.clone();
    Arrays.sort(sorted);
    long total = 0;
    for (int v : sorted) {
      total += v;
    }
    return new Tokens(sorted[0], (double) total / sorted.length, percentile(sorted, 50),
        percentile(sorted, 99), sorted[sorted.length - 1], total, histogram(sorted));
  }

  /** numpy's default percentile of a sorted sample: linear between the closest ranks. */
  static double percentile(int[] sorted, double p) {
    double rank = p / 100 * (sorted.length - 1);
    int below = (int) Math.floor(rank);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
  }

  /** At most {@value #MAX_BINS} bars of a whole number of tokens each, from the minimum. */
  static Histogram histogram(int[] sorted) {
    int min = sorted[0];
    long span = (long) sorted[sorted.length - 1] - min + 1;
    int width = (int) Math.max(1, (span + MAX_BINS - 1) / MAX_BINS);
    long[] counts = new long[(int) ((span + width - 1) / width)];
    for (int v : sorted) {
      counts[(v - min) / width]++;
    }
    return new Histogram(min, width, counts);
  }

  private static PrefixSharing prefixSharing(List<Request> requests,
      Function<String, int[]> encoder) {
    // a trie of full blocks: a block is known by the block before it and its own tokens, so
    // equal keys are exactly equal prefixes (no hash stands for a prefix)
    Map<Block, Integer> seen = new HashMap<>();
    long shared = 0;
    long total = 0;
    int sharing = 0;
    for (Request r : requests) {
      int[] ids = encoder.apply(r.prompt());
      total += ids.length;
      int parent = -1;
      boolean prefixSeen = true;
      for (int b = 0; b + BLOCK_TOKENS <= ids.length; b += BLOCK_TOKENS) {
        Block block = new Block(parent, Arrays.copyOfRange(ids, b, b + BLOCK_TOKENS));
        Integer known = seen.get(block);
        if (known == null) {
          known = seen.size();
          seen.put(block, known);
          prefixSeen = false;
        } else if (prefixSeen) {
          shared += BLOCK_TOKENS;
          if (b == 0) {
            sharing++;
          }
        }
        parent = known;
      }
    }
    return new PrefixSharing(shared, total, sharing);
  }

  /** A full block after the block numbered {@code parent} (-1: the prompt's first block). */
  private record Block(int parent, int[] tokens) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Block k && k.parent == parent && Arrays.equals(k.tokens, tokens);
    }

    @Override
    public int hashCode() {
      return parent * 31 + Arrays.hashCode(tokens);
    }
  }

  /** The console block of a dry run. */
  public String console() {
    StringBuilder s = new StringBuilder(512);
    s.append(center(" Dataset Statistics ", '=')).append('\n');
    line(s, "Requests:", Integer.toString(requests));
    block(s, "Input tokens", input);
    block(s, "Output tokens (max_tokens)", output);
    if (prefixSharing != null) {
      s.append(center("Prefix Sharing (" + BLOCK_TOKENS + "-token blocks)", '-')).append('\n');
      line(s, "Prompts starting like an earlier one:", Integer.toString(
          prefixSharing.sharingPrompts()));
      line(s, "Shared prefix tokens:", prefixSharing.sharedTokens() + " of "
          + prefixSharing.promptTokens() + String.format(Locale.ROOT, " (%.1f %%)",
              prefixSharing.sharedPercent()));
    }
    s.append("=".repeat(50)).append('\n');
    return s.toString();
  }

  private static void block(StringBuilder s, String title, Tokens t) {
    s.append(center(title, '-')).append('\n');
    line(s, "Total:", Long.toString(t.total()));
    line(s, "Min:", Integer.toString(t.min()));
    line(s, "Mean:", fixed(t.mean()));
    line(s, "P50:", fixed(t.p50()));
    line(s, "P99:", fixed(t.p99()));
    line(s, "Max:", Integer.toString(t.max()));
  }

  private static String fixed(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** vLLM's summary layout: a label column of 40, then the value. */
  private static void line(StringBuilder s, String label, String value) {
    s.append(String.format(Locale.ROOT, "%-40s %s", label, value)).append('\n');
  }

  private static String center(String text, char fill) {
    return dev.gatlingllm.internal.metrics.PyFormat.center(text, 50, fill);
  }
}
