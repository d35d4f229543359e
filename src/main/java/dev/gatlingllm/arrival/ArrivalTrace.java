package dev.gatlingllm.arrival;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Recorded arrival times to replay, in recording order. Only the gaps matter: the first
 * recorded request is replayed at the start of the run, every later one at its recorded
 * distance from the first (times the profile's time scale).
 *
 * <p>Timestamps are seconds (integer or decimal, parsed exactly to the nanosecond), or
 * ISO-8601 date-times in text form ({@code 2024-05-01T12:00:00.25Z}; without a zone they
 * are read as UTC). They must never go backwards. Immutable.
 */
public final class ArrivalTrace {

  /** BurstGPT's column holding the request time in seconds since the trace start. */
  public static final String BURSTGPT_TIMESTAMP_COLUMN = "Timestamp";

  /** Decimals stay decimals: epoch-sized timestamps would lose their nanoseconds as doubles. */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private final String source;
  private final long[] timesNanos;

  private ArrivalTrace(String source, long[] timesNanos) {
    if (timesNanos.length == 0) {
      throw new IllegalArgumentException("arrival trace " + source + " holds no timestamps");
    }
    for (int i = 1; i < timesNanos.length; i++) {
      if (timesNanos[i] < timesNanos[i - 1]) {
        throw new IllegalArgumentException(
            "arrival trace " + source + " goes backwards at entry " + i + ": "
                + seconds(timesNanos[i]) + " s after " + seconds(timesNanos[i - 1])
                + " s; timestamps must be in non-decreasing order");
      }
    }
    this.source = source;
    this.timesNanos = timesNanos;
  }

  /** A trace from timestamps in seconds (any origin), e.g. {@code ofSeconds(0, 0.5, 0.75, 3)}. */
  public static ArrivalTrace ofSeconds(double... timestampsSeconds) {
    Objects.requireNonNull(timestampsSeconds, "timestampsSeconds");
    long[] nanos = new long[timestampsSeconds.length];
    for (int i = 0; i < nanos.length; i++) {
      double t = timestampsSeconds[i];
      if (!Double.isFinite(t)) {
        throw new IllegalArgumentException(
            "arrival timestamp " + i + " is " + t + "; timestamps must be finite seconds");
      }
      nanos[i] = exactNanos(BigDecimal.valueOf(t), "entry " + i);
    }
    return new ArrivalTrace("of " + nanos.length + " timestamps", nanos);
  }

  /** A BurstGPT trace: every row's {@value #BURSTGPT_TIMESTAMP_COLUMN} column, in file order. */
  public static ArrivalTrace fromBurstGptCsv(Path csv) {
    return fromCsv(csv, BURSTGPT_TIMESTAMP_COLUMN);
  }

  /**
   * Timestamps from the named column of a CSV file with a header row (comma-separated,
   * double quotes allowed). Blank lines are skipped.
   */
  public static ArrivalTrace fromCsv(Path csv, String column) {
    Objects.requireNonNull(csv, "csv");
    Objects.requireNonNull(column, "column");
    try (BufferedReader reader = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
      String header = reader.readLine();
      if (header == null) {
        throw new IllegalArgumentException("arrival trace " + csv + " is empty (no header row)");
      }
      List<String> names = new ArrayList<>();
      for (String name : splitCsv(stripBom(header))) {
        names.add(name.trim());
      }
      int index = names.indexOf(column);
      if (index < 0) {
        throw new IllegalArgumentException(
            "arrival trace " + csv + " has no column '" + column + "'; its columns are " + names);
      }
      LongList times = new LongList();
      String line;
      int lineNumber = 1;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        List<String> cells = splitCsv(line);
        String where = csv + " line " + lineNumber;
        if (index >= cells.size()) {
          throw new IllegalArgumentException(
              "arrival trace " + where + " has no value in column '" + column + "'");
        }
        times.add(parseTimestamp(cells.get(index).trim(), where));
      }
      return new ArrivalTrace(csv.getFileName() + " column " + column, times.toArray());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read arrival trace " + csv, e);
    }
  }

  /** Timestamps from the named field of each JSON object in a JSON Lines file. Blank lines are skipped. */
  public static ArrivalTrace fromJsonl(Path jsonl, String field) {
    Objects.requireNonNull(jsonl, "jsonl");
    Objects.requireNonNull(field, "field");
    try (BufferedReader reader = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
      LongList times = new LongList();
      String line;
      int lineNumber = 0;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        String where = jsonl + " line " + lineNumber;
        JsonNode node;
        try {
          node = JSON.readTree(lineNumber == 1 ? stripBom(line) : line);
        } catch (JsonProcessingException e) {
          throw new IllegalArgumentException(
              "arrival trace " + where + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || value.isNull()) {
          throw new IllegalArgumentException(
              "arrival trace " + where + " has no field '" + field + "'");
        }
        if (value.isNumber()) {
          times.add(exactNanos(value.decimalValue(), where));
        } else if (value.isTextual()) {
          times.add(parseTimestamp(value.textValue().trim(), where));
        } else {
          throw new IllegalArgumentException(
              "arrival trace " + where + " field '" + field + "' is " + value
                  + "; expected seconds or an ISO-8601 date-time");
        }
      }
      return new ArrivalTrace(jsonl.getFileName() + " field " + field, times.toArray());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read arrival trace " + jsonl, e);
    }
  }

  /** Number of recorded arrivals. */
  public int size() {
    return timesNanos.length;
  }

  /** Where the trace came from, for messages and the result JSON. */
  public String source() {
    return source;
  }

  /** Distance of recorded arrival {@code i} from the first one, in nanoseconds. */
  public long offsetNanos(int i) {
    return timesNanos[i] - timesNanos[0];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrivalTrace other
        && source.equals(other.source)
        && Arrays.equals(timesNanos, other.timesNanos);
  }

  @Override
  public int hashCode() {
    return 31 * source.hashCode() + Arrays.hashCode(timesNanos);
  }

  @Override
  public String toString() {
    return "ArrivalTrace[" + source + ", " + timesNanos.length + " arrivals]";
  }

  private static long parseTimestamp(String text, String where) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("arrival trace " + where + " has an empty timestamp");
    }
    try {
      return exactNanos(new BigDecimal(text), where);
    } catch (NumberFormatException notANumber) {
      return isoNanos(text, where);
    }
  }

  private static long isoNanos(String text, String where) {
    Instant instant;
    try {
      instant = Instant.parse(text);
    } catch (DateTimeParseException notAnInstant) {
      try {
        instant = LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException notALocalDateTime) {
        throw new IllegalArgumentException(
            "arrival trace " + where + " timestamp '" + text
                + "' is neither seconds nor an ISO-8601 date-time", notALocalDateTime);
      }
    }
    try {
      return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L),
          instant.getNano());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "arrival trace " + where + " timestamp '" + text + "' is out of range", e);
    }
  }

  private static long exactNanos(BigDecimal seconds, String where) {
    try {
      return seconds.movePointRight(9).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "arrival trace " + where + " timestamp " + seconds + " s is out of range", e);
    }
  }

  private static String seconds(long nanos) {
    return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
  }

  private static String stripBom(String s) {
    return s.startsWith("\uFEFF") ? s.substring(1) : s;
  }

  /** Splits one CSV record; quoted cells may hold commas and doubled quotes. */
  static List<String> splitCsv(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  /** Growable primitive list: traces can hold millions of rows. */
  private static final class LongList {
    private long[] values = new long[1024];
    private int size;

    void add(long value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
