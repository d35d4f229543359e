package dev.gatlingllm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Berkeley Function Calling Leaderboard as vLLM's {@code hf} reader replays it
 * ({@code --dataset-path gorilla-llm/Berkeley-Function-Calling-Leaderboard}, with
 * {@code --bfcl-categories}): tool-calling traffic. The hub repository holds one JSON Lines
 * file per category at its root, {@code BFCL_v3_<category>.json}; a local folder holding such
 * files works the same. Each line has a {@code question} (turns of chat messages) and the
 * {@code function} schemas the model may call.
 *
 * <p>The prompt is the first turn's messages, their contents joined by a blank line; the
 * functions become OpenAI {@code tools} (BFCL's type names made JSON Schema ones:
 * {@code dict} → {@code object}, {@code float} → {@code number}, {@code tuple} →
 * {@code array}, {@code any} left untyped), sent in the chat request's body from the feeder
 * key {@value #TOOLS}. The prompt length counts the tools' JSON too: the server reads them as
 * input.
 */
public final class BfclDataset extends DatasetBuilder<BfclDataset> {

  /** The hub dataset vLLM reads. */
  public static final String HUB_ID = "gorilla-llm/Berkeley-Function-Calling-Leaderboard";
  /** Feeder key of a request's OpenAI tools ({@code List<Map>}), sent by chat requests. */
  public static final String TOOLS = "tools";
  /** Categories read when none are given: BFCL's four single-turn AST categories. */
  public static final List<String> DEFAULT_CATEGORIES =
      List.of("simple", "multiple", "parallel", "parallel_multiple");
  /** Output tokens of each request unless {@code --hf-output-len} says otherwise. */
  public static final int DEFAULT_OUTPUT_LEN = 256;

  private final String path;
  private final List<String> categories;
  private final int outputLen;
  private final HubClient hub;

  BfclDataset(String path) {
    this(Common.DEFAULTS, path, DEFAULT_CATEGORIES, DEFAULT_OUTPUT_LEN, null);
  }

  private BfclDataset(Common common, String path, List<String> categories, int outputLen,
      HubClient hub) {
    super(common);
    this.path = Objects.requireNonNull(path, "path");
    this.categories = List.copyOf(categories);
    this.outputLen = outputLen;
    this.hub = hub;
  }

  @Override
  BfclDataset with(Common common) {
    return new BfclDataset(common, path, categories, outputLen, hub);
  }

  /** Whether a dataset path or {@code --hf-name} names BFCL. */
  public static boolean isBfcl(String id) {
    return HUB_ID.equals(id);
  }

  /**
   * The categories to read ({@code --bfcl-categories}: comma-separated names without the
   * {@code BFCL_v3_} prefix or {@code .json} suffix).
   */
  public BfclDataset categories(String commaSeparated) {
    List<String> names = Arrays.stream(commaSeparated.split(",")).map(String::strip)
        .filter(n -> !n.isEmpty()).toList();
    if (names.isEmpty()) {
      throw new IllegalArgumentException("--bfcl-categories names no category: give "
          + "comma-separated names such as " + String.join(",", DEFAULT_CATEGORIES));
    }
    for (String n : names) {
      if (!n.matches("[A-Za-z0-9_]+")) {
        throw new IllegalArgumentException("--bfcl-categories: '" + n + "' is not a category "
            + "name (letters, digits and _ only, without BFCL_v3_ or .json)");
      }
    }
    return new BfclDataset(common, path, names, outputLen, hub);
  }

  /** Output tokens of every request ({@code --hf-output-len}, default 256). */
  public BfclDataset outputLen(int tokens) {
    atLeast("hf-output-len", tokens, 1);
    return new BfclDataset(common, path, categories, tokens, hub);
  }

  /** The hub client that downloads the category files (default: from the environment). */
  BfclDataset hub(HubClient client) {
    return new BfclDataset(common, path, categories, outputLen, client);
  }

  @Override
  public String name() {
    return "hf";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    List<Row> rows = new ArrayList<>();
    for (String category : categories) {
      Path file = file(category);
      DataFiles.jsonLines(file, "BFCL", (number, node) ->
          rows.add(row(node, "BFCL file " + file + " line " + number)));
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(rows, common.seed());
    }
    List<SampleRequest> requests = new ArrayList<>();
    for (int i = 0; i < rows.size() && requests.size() < common.numPrompts(); i++) {
      Row r = rows.get(i);
      int promptLen = tokenizer.countWithSpecialTokens(r.prompt())
          + tokenizer.count(r.toolsJson());
      requests.add(new SampleRequest(r.prompt(), promptLen, outputLen, common.id(i),
          Map.of(TOOLS, r.tools())));
    }
    int copies = Sampling.oversample(requests, common, "BFCL categories " + categories);
    return Sampling.done(name(), requests, rows.size() + " BFCL questions of " + categories
        + ", " + copies + " repeated to reach " + common.numPrompts());
  }

  /** A category's file: in the local folder, or downloaded from the hub. */
  private Path file(String category) {
    String name = "BFCL_v3_" + category + ".json";
    Path local = Path.of(path);
    if (Files.isDirectory(local)) {
      Path file = local.resolve(name);
      if (!Files.isRegularFile(file)) {
        throw new DatasetException("BFCL category '" + category + "' not found: " + file
            + " does not exist; check --bfcl-categories");
      }
      return file;
    }
    if (!isBfcl(path)) {
      throw new DatasetException("BFCL --dataset-path " + path + " is neither a folder of "
          + "BFCL_v3_<category>.json files nor " + HUB_ID);
    }
    return (hub != null ? hub : HubClient.fromEnvironment()).datasetFile(HUB_ID, name);
  }

  /** One question: its prompt, its tools, and their JSON (for the prompt length). */
  record Row(String prompt, List<Map<String, Object>> tools, String toolsJson) {}

  static Row row(JsonNode node, String where) {
    JsonNode question = node.get("question");
    JsonNode turn = question != null && question.isArray() && !question.isEmpty()
        ? question.get(0) : null;
    // the older single-turn layout had the messages directly in "question"
    JsonNode messages = turn != null && turn.isArray() ? turn : question;
    List<String> parts = new ArrayList<>();
    if (messages != null && messages.isArray()) {
      for (JsonNode m : messages) {
        String content = DataFiles.text(m, "content");
        if (content != null) {
          parts.add(content);
        }
      }
    }
    JsonNode functions = node.get("function");
    if (parts.isEmpty() || functions == null || !functions.isArray()) {
      throw new DatasetException(where + " has no \"question\" with message contents and "
          + "\"function\" list");
    }
    List<Map<String, Object>> tools = new ArrayList<>();
    for (JsonNode f : functions) {
      Map<String, Object> function = new LinkedHashMap<>();
      function.put("name", DataFiles.text(f, "name"));
      String description = DataFiles.text(f, "description");
      if (description != null) {
        function.put("description", description);
      }
      function.put("parameters", f.has("parameters") ? schema(f.get("parameters"))
          : Map.of("type", "object", "properties", Map.of()));
      Map<String, Object> tool = new LinkedHashMap<>();
      tool.put("type", "function");
      tool.put("function", function);
      tools.add(tool);
    }
    try {
      return new Row(String.join("\n\n", parts), tools, DataFiles.JSON.writeValueAsString(tools));
    } catch (JsonProcessingException e) {
      throw new DatasetException(where + ": " + e.getOriginalMessage());
    }
  }

  /** A BFCL schema as strict JSON Schema, recursively: BFCL's own type names replaced. */
  static Object schema(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (e.getKey().equals("type") && e.getValue().isTextual()) {
          String type = jsonSchemaType(e.getValue().asText());
          if (type != null) {
            out.put("type", type);
          }
        } else {
          out.put(e.getKey(), schema(e.getValue()));
        }
      }
      return out;
    }
    if (node.isArray()) {
      List<Object> out = new ArrayList<>();
      node.forEach(n -> out.add(schema(n)));
      return out;
    }
    return DataFiles.JSON.convertValue(node, Object.class);
  }

  /** BFCL's type name as JSON Schema's; null for {@code any} (no type constraint). */
  static String jsonSchemaType(String bfcl) {
    return switch (bfcl) {
      case "dict" -> "object";
      case "float" -> "number";
      case "tuple" -> "array";
      case "any" -> null;
      default -> bfcl;
    };
  }

  @Override
  public String toString() {
    return "bfcl{path=" + path + ", categories=" + categories + ", outputLen=" + outputLen
        + ", " + common + "}";
  }
}
