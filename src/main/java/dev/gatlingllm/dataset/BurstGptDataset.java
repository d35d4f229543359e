package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Request and response sizes from a BurstGPT trace ({@code --dataset-name burstgpt}): a CSV
 * with the header {@code Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type}.
 *
 * <p>Only rows whose {@code Model} is {@code GPT-4} (see {@link #model}) with a positive
 * {@code Response tokens} are used, as in vLLM; rows with no request tokens are skipped too,
 * since an empty prompt cannot be sent. Rows are drawn at random: without repetition when the
 * file has enough, with repetition otherwise. Each prompt is synthetic text of exactly the
 * row's {@code Request tokens} (consecutive vocabulary ids decoded and re-encoded, as for the
 * random dataset), and the output length is the row's {@code Response tokens}. The row's
 * timestamp is in the extra feeder key {@value #TIMESTAMP} (seconds, a Double).
 */
public final class BurstGptDataset extends DatasetBuilder<BurstGptDataset> {

  public static final String DEFAULT_MODEL = "GPT-4";
  /** Feeder key of the row's trace timestamp in seconds. */
  public static final String TIMESTAMP = "timestamp";

  private static final String MODEL = "Model";
  private static final String REQUEST = "Request tokens";
  private static final String RESPONSE = "Response tokens";
  private static final String TIME = "Timestamp";

  private final Path path;
  private final String model;

  BurstGptDataset(Path path) {
    this(Common.DEFAULTS, path, DEFAULT_MODEL);
  }

  private BurstGptDataset(Common common, Path path, String model) {
    super(common);
    this.path = path;
    this.model = model;
  }

  @Override
  BurstGptDataset with(Common common) {
    return new BurstGptDataset(common, path, model);
  }

  /** Which {@code Model} rows to use, default {@code GPT-4} (the trace also has ChatGPT). */
  public BurstGptDataset model(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("burstgpt model must not be blank");
    }
    return new BurstGptDataset(common, path, name);
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }

  @Override
  public String name() {
    return "burstgpt";
  }

  /** One usable row: request and response token counts and the timestamp (or NaN). */
  private record Row(int requestTokens, int responseTokens, double timestamp) {}

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    DataFiles.requireFile(path, "BurstGPT");
    List<Row> rows = readRows();
    if (rows.isEmpty()) {
      throw new DatasetException("BurstGPT file " + path + " has no row with Model '" + model
          + "', Request tokens > 0 and Response tokens > 0");
    }
    int n = common.numPrompts();
    SplittableRandom pick = Sampling.rng(common.seed(), Sampling.Stream.PICK);
    List<Row> chosen = new ArrayList<>(n);
    if (n <= rows.size() || common.noOversample()) {
      // partial Fisher-Yates: the first n of a random permutation, without repetition
      List<Row> pool = new ArrayList<>(rows);
      int take = Math.min(n, pool.size());
      for (int i = 0; i < take; i++) {
        int j = i + pick.nextInt(pool.size() - i);
        Row tmp = pool.get(i);
        pool.set(i, pool.get(j));
        pool.set(j, tmp);
        chosen.add(pool.get(i));
      }
    } else {
      for (int i = 0; i < n; i++) {
        chosen.add(rows.get(pick.nextInt(rows.size())));
      }
    }
    int[] regular = tokenizer.regularTokenIds();
    List<SampleRequest> requests = IntStream.range(0, chosen.size()).parallel().mapToObj(i -> {
      Row row = chosen.get(i);
      int[] ids = TokenPrompts.consecutive(regular, i, row.requestTokens());
      TokenPrompts.Prompt prompt = TokenPrompts.exactLength(tokenizer, ids, row.requestTokens(),
          regular, Sampling.rng(common.seed(), Sampling.Stream.TOKENS, i));
      Map<String, Object> extras = Double.isNaN(row.timestamp())
          ? Map.of() : Map.of(TIMESTAMP, row.timestamp());
      return new SampleRequest(prompt.text(), prompt.tokens(), row.responseTokens(),
          common.id(i), extras);
    }).toList();
    return Sampling.done(name(), requests, rows.size() + " usable " + model + " rows, drawn "
        + (n <= rows.size() || common.noOversample() ? "without" : "with") + " repetition");
  }

  private List<Row> readRows() {
    List<Row> rows = new ArrayList<>();
    try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      String headerLine = reader.readLine();
      if (headerLine == null) {
        throw new DatasetException("BurstGPT file " + path + " is empty");
      }
      List<String> header = Csv.split(headerLine, path, 1);
      Map<String, Integer> columns = new HashMap<>();
      for (int i = 0; i < header.size(); i++) {
        columns.put(header.get(i).trim(), i);
      }
      for (String required : List.of(MODEL, REQUEST, RESPONSE)) {
        if (!columns.containsKey(required)) {
          throw new DatasetException("BurstGPT file " + path + " has no '" + required
              + "' column; its header is: " + headerLine);
        }
      }
      int modelCol = columns.get(MODEL);
      int requestCol = columns.get(REQUEST);
      int responseCol = columns.get(RESPONSE);
      Integer timeCol = columns.get(TIME);
      String line;
      int number = 1;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        List<String> cells = Csv.split(line, path, number);
        if (cells.size() != header.size()) {
          throw new DatasetException("BurstGPT file " + path + " line " + number + " has "
              + cells.size() + " fields, the header has " + header.size());
        }
        if (!model.equals(cells.get(modelCol).trim())) {
          continue;
        }
        int request = tokenCount(cells.get(requestCol), REQUEST, number);
        int response = tokenCount(cells.get(responseCol), RESPONSE, number);
        double time = timeCol == null ? Double.NaN
            : number(cells.get(timeCol), TIME, number);
        if (request > 0 && response > 0) {
          rows.add(new Row(request, response, time));
        }
      }
    } catch (IOException e) {
      throw new DatasetException("Cannot read BurstGPT file " + path + ": " + e.getMessage(), e);
    }
    return rows;
  }

  private int tokenCount(String cell, String column, int line) {
    double value = number(cell, column, line);
    if (value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE) {
      throw new DatasetException("BurstGPT file " + path + " line " + line + ": '" + column
          + "' must be a whole non-negative number, got '" + cell + "'");
    }
    return (int) value;
  }

  private double number(String cell, String column, int line) {
    try {
      return Double.parseDouble(cell.trim());
    } catch (NumberFormatException e) {
      throw new DatasetException("BurstGPT file " + path + " line " + line + ": '" + column
          + "' is not a number: '" + cell + "'");
    }
  }

  @Override
  public String toString() {
    return "burstgpt{path=" + path + ", model=" + model + ", " + common + "}";
  }

  /** Minimal RFC 4180 field splitting: commas, double-quoted fields, doubled quotes. */
  static final class Csv {
    private Csv() {}

    static List<String> split(String line, Path file, int number) {
      List<String> fields = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (quoted) {
          if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else if (c == '"') {
            quoted = false;
          } else {
            field.append(c);
          }
        } else if (c == '"' && field.length() == 0) {
          quoted = true;
        } else if (c == ',') {
          fields.add(field.toString());
          field.setLength(0);
        } else {
          field.append(c);
        }
      }
      if (quoted) {
        throw new DatasetException("CSV file " + file + " line " + number
            + " has an unterminated quoted field");
      }
      fields.add(field.toString());
      return fields;
    }
  }
}
