package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * vllm-bench's generic reader of a Hugging Face dataset, used with {@code --hf-text-column}:
 * the prompt is that column of each row, whatever the dataset. The column may hold the text
 * itself, a list of strings (its first, as MT-Bench's {@code turns}) or chat messages
 * ({@code {role, content}} or ShareGPT's {@code {from, value}}: the first user turn). The
 * reply, whose token count is the output length, is the first column of
 * {@link #OUTPUT_COLUMNS} the dataset has (a list: its first string).
 */
final class HfTextColumn {

  /** vllm-bench's output columns, in the order it looks for them. */
  static final List<String> OUTPUT_COLUMNS = List.of("completion", "response", "answer",
      "output", "solution", "answers");
  /** Output tokens of a row without a reply, when no {@code --hf-output-len} is given. */
  static final int DEFAULT_OUTPUT_LEN = 128;
  /** Prompts shorter than this many tokens are left out, as vllm-bench leaves them out. */
  static final int MIN_PROMPT_TOKENS = 4;

  private final String textColumn;
  private final String outputColumn;

  private HfTextColumn(String textColumn, String outputColumn) {
    this.textColumn = textColumn;
    this.outputColumn = outputColumn;
  }

  /**
   * The reader of {@code column} for a dataset with these columns.
   *
   * @throws DatasetException when the dataset has no such column, naming those it has
   */
  static HfTextColumn of(String column, List<String> columns, String dataset) {
    if (!columns.contains(column)) {
      throw new DatasetException("--hf-text-column '" + column + "': " + dataset
          + " has no such column; its columns: " + columns);
    }
    String output = OUTPUT_COLUMNS.stream().filter(columns::contains).findFirst().orElse(null);
    return new HfTextColumn(column, output);
  }

  /** The columns to read from each row. */
  List<String> columns() {
    List<String> wanted = new ArrayList<>(List.of(textColumn));
    if (outputColumn != null && !outputColumn.equals(textColumn)) {
      wanted.add(outputColumn);
    }
    return wanted;
  }

  /** A row's prompt and reply, or why it is left out. */
  HfKind.Candidate candidate(Map<String, Object> row) {
    String prompt = prompt(row.get(textColumn));
    if (prompt == null || prompt.isEmpty()) {
      return HfKind.Candidate.skipped("no text in column " + textColumn);
    }
    String reply = outputColumn == null ? null : firstString(row.get(outputColumn));
    return new HfKind.Candidate(prompt, reply, Double.NaN);
  }

  private static String prompt(Object value) {
    if (value instanceof String text) {
      return text;
    }
    if (value instanceof List<?> list && !list.isEmpty()) {
      if (list.get(0) instanceof String first) {
        return first;
      }
      if (list.stream().allMatch(HfTextColumn::isMessage)) {
        for (Object m : list) {
          Map<?, ?> message = (Map<?, ?>) m;
          Object role = message.containsKey("role") ? message.get("role") : message.get("from");
          Object content = message.containsKey("role") ? message.get("content")
              : message.get("value");
          if (("user".equals(role) || "human".equals(role)) && content instanceof String text) {
            return text;
          }
        }
      }
    }
    return null;
  }

  private static boolean isMessage(Object value) {
    return value instanceof Map<?, ?> m && (m.containsKey("role") && m.containsKey("content")
        || m.containsKey("from") && m.containsKey("value"));
  }

  private static String firstString(Object value) {
    if (value instanceof String text) {
      return text;
    }
    if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof String s) {
      return s;
    }
    return null;
  }
}
