package dev.gatlingllm.dataset;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The Hugging Face datasets vLLM knows, by shape: which ids have it, which columns it needs,
 * and how a row becomes a prompt (and a reference reply or output length).
 */
enum HfKind {

  /** ShareGPT-style: {@code conversations} list of {@code {from, value}} turns. */
  CONVERSATION("ShareGPT-style conversations", List.of("conversations"), null, 1024, 2048,
      "Aeala/ShareGPT_Vicuna_unfiltered") {
    @Override
    Candidate candidate(Map<String, Object> row) {
      if (!(row.get("conversations") instanceof List<?> turns) || turns.size() < 2) {
        return null;
      }
      String prompt = turnText(turns.get(0));
      String reply = turnText(turns.get(1));
      return prompt == null || reply == null ? null : new Candidate(prompt, reply, Double.NaN);
    }
  },

  /** InstructCoder: code {@code input} plus an edit {@code instruction}. */
  INSTRUCT_CODER("InstructCoder", List.of("input", "instruction"), 200, 0, 0,
      "likaixin/InstructCoder") {
    @Override
    Candidate candidate(Map<String, Object> row) {
      String input = text(row, "input");
      String instruction = text(row, "instruction");
      if (input == null || instruction == null) {
        return null;
      }
      return new Candidate(input + "\n\n" + instruction
          + " Output only the code, without any explanation.", null, Double.NaN);
    }
  },

  /** AIMO / NuminaMath: a {@code problem} and its reference {@code solution}. */
  AIMO("AIMO", List.of("problem", "solution"), null, 2048, 32000,
      "AI-MO/aimo-validation-aime", "AI-MO/NuminaMath-1.5", "AI-MO/NuminaMath-CoT") {
    @Override
    Candidate candidate(Map<String, Object> row) {
      String problem = text(row, "problem");
      String solution = text(row, "solution");
      return problem == null || solution == null ? null
          : new Candidate(problem, solution, Double.NaN);
    }
  },

  /** MT-Bench: the first of the question's {@code turns}. */
  MT_BENCH("MT-Bench", List.of("turns"), 256, 0, 0, "philschmid/mt-bench") {
    @Override
    Candidate candidate(Map<String, Object> row) {
      if (!(row.get("turns") instanceof List<?> turns) || turns.isEmpty()
          || !(turns.get(0) instanceof String first)) {
        return null;
      }
      return new Candidate(first, null, Double.NaN);
    }
  },

  /** Blazedit: a {@code code} file, a {@code change_request} and its {@code norm_distance}. */
  BLAZEDIT("Blazedit", List.of("code", "change_request", "norm_distance"), 4000, 0, 0,
      "vdaita/edit_5k_char", "vdaita/edit_10k_char") {
    @Override
    Candidate candidate(Map<String, Object> row) {
      String code = text(row, "code");
      String change = text(row, "change_request");
      if (code == null || change == null || !(row.get("norm_distance") instanceof Number d)) {
        return null;
      }
      String prompt = "Apply the change request below to this code file and write out the "
          + "complete new file.\n\nOriginal file:\n```python\n" + code + "\n```\n\n"
          + "Change request:\n" + change + "\n\nWrite the new code file in a \"New file\" "
          + "section below.";
      return new Candidate(prompt, null, d.doubleValue());
    }
  };

  /**
   * What one row contributes: the prompt, the reference reply when the output length comes
   * from it (else null), and Blazedit's edit distance (else NaN).
   */
  record Candidate(String prompt, String reply, double distance) {}

  private final String label;
  private final List<String> columns;
  private final Integer defaultOutputLen;
  private final int maxPromptLen;
  private final int maxTotalLen;
  private final Set<String> ids;

  HfKind(String label, List<String> columns, Integer defaultOutputLen, int maxPromptLen,
      int maxTotalLen, String... ids) {
    this.label = label;
    this.columns = columns;
    this.defaultOutputLen = defaultOutputLen;
    this.maxPromptLen = maxPromptLen;
    this.maxTotalLen = maxTotalLen;
    this.ids = Set.of(ids);
  }

  /** The row's prompt and reference, or null when the row does not have the shape. */
  abstract Candidate candidate(Map<String, Object> row);

  String label() {
    return label;
  }

  List<String> columns() {
    return columns;
  }

  /** Output length when neither the row's reply nor an override gives one; null if dynamic. */
  Integer defaultOutputLen() {
    return defaultOutputLen;
  }

  /** Whether prompt/reply pairs are pruned by length (only when the reply sets the output). */
  boolean prunes() {
    return defaultOutputLen == null;
  }

  int maxPromptLen() {
    return maxPromptLen;
  }

  int maxTotalLen() {
    return maxTotalLen;
  }

  static Optional<HfKind> byId(String id) {
    return Arrays.stream(values()).filter(k -> k.ids.contains(id)).findFirst();
  }

  /** The kind whose columns a file has; the more specific shapes are tried first. */
  static Optional<HfKind> byColumns(Collection<String> present) {
    return List.of(BLAZEDIT, INSTRUCT_CODER, AIMO, MT_BENCH, CONVERSATION).stream()
        .filter(k -> present.containsAll(k.columns)).findFirst();
  }

  static String supportedIds() {
    return Arrays.stream(values()).flatMap(k -> k.ids.stream())
        .collect(Collectors.toCollection(TreeSet::new)).toString();
  }

  static String shapes() {
    return Arrays.stream(values()).map(k -> k.label + " " + k.columns)
        .collect(Collectors.joining(", "));
  }

  private static String text(Map<String, Object> row, String column) {
    return row.get(column) instanceof String s ? s : null;
  }

  /** A turn is {@code {"from", "value"}} (ShareGPT) or {@code {"role", "content"}}. */
  private static String turnText(Object turn) {
    if (turn instanceof Map<?, ?> map) {
      Object value = map.containsKey("value") ? map.get("value") : map.get("content");
      return value instanceof String s ? s : null;
    }
    return null;
  }
}
