package dev.gatlingllm.tokenizer;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tiktoken rank file ({@code *.tiktoken}, {@code tiktoken.model}): byte-level BPE over the
 * ranks it lists. Text is split with the encoding's pre-tokenizer pattern, each piece's
 * UTF-8 bytes are merged pair by pair, always the adjacent pair whose concatenation has the
 * lowest rank, until no pair is in the file; a token's id is its rank. Decoding concatenates
 * the tokens' bytes and reads them as UTF-8.
 *
 * <p>The file holds the ranks only: the split pattern and the special tokens come from the
 * encoding's name, found in the file name ({@link Encoding#forFile}). A model with its own
 * pattern gives it to {@link Tokenizer#tiktoken(Path, String)}.
 */
final class TiktokenEngine implements TokenizerEngine {

  private static final Logger LOG = LoggerFactory.getLogger(TiktokenEngine.class);

  /** GPT-2's pattern, also r50k_base's and p50k_base's. */
  static final String GPT2_PATTERN =
      "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
  static final String CL100K_PATTERN = "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}+"
      + "|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+";
  static final String O200K_PATTERN = String.join("|",
      "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
          + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
      "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
          + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
      "\\p{N}{1,3}",
      " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
      "\\s*[\\r\\n]+",
      "\\s+(?!\\S)",
      "\\s+");

  /** The encodings whose pattern and special tokens are known by name. */
  enum Encoding {
    R50K("r50k_base", GPT2_PATTERN, Map.of("<|endoftext|>", 50256)),
    P50K("p50k_base", GPT2_PATTERN, Map.of("<|endoftext|>", 50256)),
    CL100K("cl100k_base", CL100K_PATTERN, Map.of("<|endoftext|>", 100257,
        "<|fim_prefix|>", 100258, "<|fim_middle|>", 100259, "<|fim_suffix|>", 100260,
        "<|endofprompt|>", 100276)),
    O200K("o200k_base", O200K_PATTERN, Map.of("<|endoftext|>", 199999,
        "<|endofprompt|>", 200018));

    final String fileName;
    final String pattern;
    final Map<String, Integer> specialTokens;

    Encoding(String fileName, String pattern, Map<String, Integer> specialTokens) {
      this.fileName = fileName;
      this.pattern = pattern;
      this.specialTokens = specialTokens;
    }

    /**
     * The encoding a file name names ({@code r50k_base.tiktoken}, {@code o200k_base...}),
     * else null: a model's own {@code tiktoken.model} (Llama 3 style) says nothing.
     */
    static Encoding forFile(Path file) {
      String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
      for (Encoding e : values()) {
        if (name.contains(e.fileName.substring(0, e.fileName.indexOf('_')))) {
          return e;
        }
      }
      return null;
    }
  }

  /**
   * The pattern of a file whose name names no encoding: cl100k_base's, which the models that
   * ship a bare {@code tiktoken.model} (Llama 3 and those built on it) split text with, give
   * or take a possessive quantifier.
   */
  static final String DEFAULT_PATTERN = CL100K_PATTERN;

  /** Bytes of a token, as a Latin-1 string (one char per byte): a cheap map key. */
  private final Map<String, Integer> ranks;
  private final byte[][] bytesById;
  private final Map<Integer, String> specialText;
  private final Pattern split;
  private final int[] regularIds;
  private final int[] specialIds;
  private final int vocabSize;

  private TiktokenEngine(Map<String, Integer> ranks, byte[][] bytesById,
      Map<String, Integer> specials, Pattern split) {
    this.ranks = ranks;
    this.bytesById = bytesById;
    this.split = split;
    this.specialText = new HashMap<>();
    specials.forEach((text, id) -> specialText.put(id, text));
    this.regularIds = ranks.values().stream().mapToInt(Integer::intValue).sorted().toArray();
    this.specialIds = specials.values().stream().mapToInt(Integer::intValue).sorted()
        .toArray();
    int maxId = regularIds.length == 0 ? -1 : regularIds[regularIds.length - 1];
    for (int id : specialIds) {
      maxId = Math.max(maxId, id);
    }
    this.vocabSize = maxId + 1;
  }

  /**
   * Loads a rank file with the pattern and special tokens its name names, else
   * {@link #DEFAULT_PATTERN} and none.
   */
  static TiktokenEngine load(Path file) {
    Encoding encoding = Encoding.forFile(file);
    if (encoding == null) {
      // counts may then differ from the server's (another split, a BOS it adds): say so
      LOG.warn("tiktoken file {} names no known encoding: split with cl100k_base's pattern, "
          + "no special tokens added; a model with its own pattern or BOS counts otherwise "
          + "(load it with tiktoken(file, pattern))", file);
      return load(file, DEFAULT_PATTERN, Map.of());
    }
    return load(file, encoding.pattern, encoding.specialTokens);
  }

  /**
   * @throws IllegalArgumentException naming the file and line of a malformed entry, or the
   *     pattern when it is not a regular expression
   */
  static TiktokenEngine load(Path file, String pattern, Map<String, Integer> specials) {
    Pattern split;
    try {
      // \s and the classes by Unicode, as tiktoken's regex engine has them
      split = Pattern.compile(pattern, Pattern.UNICODE_CHARACTER_CLASS);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Not a split pattern for tiktoken file " + file
          + ": " + e.getMessage(), e);
    }
    Map<String, Integer> ranks = new HashMap<>();
    int maxRank = -1;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        String[] parts = line.strip().split(" ");
        if (parts.length != 2) {
          throw malformed(file, number, "expected '<base64 bytes> <rank>', got "
              + excerpt(line));
        }
        byte[] bytes;
        int rank;
        try {
          bytes = Base64.getDecoder().decode(parts[0]);
        } catch (IllegalArgumentException e) {
          throw malformed(file, number, "'" + excerpt(parts[0]) + "' is not base64");
        }
        try {
          rank = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
          throw malformed(file, number, "rank '" + excerpt(parts[1]) + "' is not a number");
        }
        if (bytes.length == 0 || rank < 0) {
          throw malformed(file, number, bytes.length == 0 ? "empty token" : "negative rank");
        }
        if (ranks.put(new String(bytes, StandardCharsets.ISO_8859_1), rank) != null) {
          throw malformed(file, number, "token listed twice");
        }
        maxRank = Math.max(maxRank, rank);
      }
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException("Not a tiktoken rank file: " + file
          + " (it is not ASCII text)", e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read tiktoken file " + file, e);
    }
    if (ranks.isEmpty()) {
      throw new IllegalArgumentException("Not a tiktoken rank file: " + file + " (no ranks)");
    }
    byte[][] bytesById = new byte[maxRank + 1][];
    for (Map.Entry<String, Integer> entry : ranks.entrySet()) {
      if (bytesById[entry.getValue()] != null) {
        throw new IllegalArgumentException("Not a tiktoken rank file: " + file + " (rank "
            + entry.getValue() + " is given to two tokens)");
      }
      bytesById[entry.getValue()] = entry.getKey().getBytes(StandardCharsets.ISO_8859_1);
    }
    // without all 256 single bytes some text has no encoding at all
    for (int b = 0; b < 256; b++) {
      if (!ranks.containsKey(String.valueOf((char) b))) {
        throw new IllegalArgumentException("Not a tiktoken rank file: " + file
            + " (no token for the single byte 0x" + String.format("%02x", b) + ")");
      }
    }
    return new TiktokenEngine(ranks, bytesById, specials, split);
  }

  private static IllegalArgumentException malformed(Path file, int line, String why) {
    return new IllegalArgumentException("Not a tiktoken rank file: " + file + " line " + line
        + ": " + why);
  }

  private static String excerpt(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  @Override
  public int[] encode(String text) {
    IntBuffer out = new IntBuffer(text.length() / 3 + 4);
    Matcher pieces = split.matcher(text);
    while (pieces.find()) {
      byte[] piece = pieces.group().getBytes(StandardCharsets.UTF_8);
      Integer whole = ranks.get(new String(piece, StandardCharsets.ISO_8859_1));
      if (whole != null) {
        out.add(whole);
      } else {
        mergePairs(piece, out);
      }
    }
    return out.toArray();
  }

  /**
   * Merges the piece's bytes: {@code starts} holds where each part begins (and the end),
   * {@code pairRank[i]} the rank of parts i and i+1 together; the lowest pair merges until
   * none is in the file. Only a merged part's neighbours change, so only their ranks are
   * looked up again.
   */
  private void mergePairs(byte[] piece, IntBuffer out) {
    int parts = piece.length;
    int[] starts = new int[parts + 1];
    for (int i = 0; i <= parts; i++) {
      starts[i] = i;
    }
    int[] pairRank = new int[Math.max(0, parts - 1)];
    for (int i = 0; i + 1 < parts; i++) {
      pairRank[i] = rankOf(piece, starts[i], starts[i + 2]);
    }
    while (parts > 1) {
      int best = -1;
      int bestRank = Integer.MAX_VALUE;
      for (int i = 0; i + 1 < parts; i++) {
        if (pairRank[i] < bestRank) {
          bestRank = pairRank[i];
          best = i;
        }
      }
      if (best < 0) {
        break;
      }
      // part best absorbs part best+1
      System.arraycopy(starts, best + 2, starts, best + 1, parts - best - 1);
      System.arraycopy(pairRank, best + 1, pairRank, best, parts - best - 2);
      parts--;
      if (best + 1 < parts) {
        pairRank[best] = rankOf(piece, starts[best], starts[best + 2]);
      }
      if (best > 0) {
        pairRank[best - 1] = rankOf(piece, starts[best - 1], starts[best + 1]);
      }
    }
    for (int i = 0; i < parts; i++) {
      int rank = rankOf(piece, starts[i], starts[i + 1]);
      if (rank == Integer.MAX_VALUE) {
        // a merge whose result the file does not rank: the file is not a complete BPE
        throw new IllegalArgumentException("tiktoken rank file has no rank for the bytes of "
            + "a merged piece (" + (starts[i + 1] - starts[i]) + " bytes): not a complete "
            + "byte-pair encoding");
      }
      out.add(rank);
    }
  }

  private int rankOf(byte[] piece, int from, int to) {
    Integer rank = ranks.get(new String(piece, from, to - from, StandardCharsets.ISO_8859_1));
    return rank == null ? Integer.MAX_VALUE : rank;
  }

  @Override
  public int countWithSpecialTokens(String text) {
    // tiktoken adds no BOS or EOS of its own
    return count(text);
  }

  @Override
  public String decode(int[] ids) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(ids.length * 4);
    for (int id : ids) {
      String special = specialText.get(id);
      if (special != null) {
        bytes.writeBytes(special.getBytes(StandardCharsets.UTF_8));
      } else if (id >= 0 && id < bytesById.length && bytesById[id] != null) {
        bytes.writeBytes(bytesById[id]);
      } else {
        throw new IllegalArgumentException("Token id " + id + " is not in the tiktoken "
            + "vocabulary (ids 0.." + (vocabSize - 1) + ")");
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Override
  public int vocabSize() {
    return vocabSize;
  }

  @Override
  public int[] specialTokenIds() {
    return specialIds;
  }

  @Override
  public int[] regularTokenIds() {
    return regularIds;
  }

  @Override
  public int numSpecialTokensToAdd() {
    return 0;
  }

  @Override
  public void close() {
    // nothing native
  }

  /** A growable int array: encoding allocates no boxed Integer per token. */
  private static final class IntBuffer {
    private int[] values;
    private int size;

    IntBuffer(int capacity) {
      values = new int[capacity];
    }

    void add(int value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2 + 1);
      }
      values[size++] = value;
    }

    int[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
