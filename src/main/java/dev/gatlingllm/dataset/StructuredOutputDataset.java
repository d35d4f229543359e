package dev.gatlingllm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Structured-output traffic ({@code --dataset-name structured_output}): each request asks for
 * a JSON answer that follows a schema, sent as OpenAI's {@code response_format}
 * ({@code {"type": "json_schema", "json_schema": {"name", "schema"}}}) from the feeder key
 * {@value #RESPONSE_FORMAT}; the client checks every answer against its schema and the result
 * reports the share that validated ({@code structured_output_valid_rate}).
 *
 * <p>The schemas and their prompts come from a JSON Lines file, one
 * {@code {"name", "prompt", "schema"}} per line: the eight shipped with the plugin
 * ({@code datasets/structured_output/schemas.jsonl}: people, orders, reports, ... in the
 * subset of JSON Schema the check reads: {@code type}, {@code properties}, {@code required},
 * {@code enum}, {@code items}, {@code additionalProperties}), or a file of your own given as
 * {@code --dataset-path}. The prompt sent is the line's prompt followed by the schema, as
 * vLLM's structured-output benchmark words it, so a server without structured decoding is
 * still told what to write; its length counts both. Rows are shuffled with the seed unless
 * {@code disableShuffle}, and repeated to reach {@code numPrompts}.
 */
public final class StructuredOutputDataset extends DatasetBuilder<StructuredOutputDataset> {

  /** Feeder key of the request's {@code response_format} ({@code Map}), sent by chat requests. */
  public static final String RESPONSE_FORMAT = "response_format";
  /** Output tokens of each request unless {@link #outputLen} says otherwise. */
  public static final int DEFAULT_OUTPUT_LEN = 128;
  /** The shipped schemas, inside the plugin's jar. */
  static final String SHIPPED = "structured-output.jsonl";

  private final String path;
  private final int outputLen;

  StructuredOutputDataset(String path) {
    this(Common.DEFAULTS, path, DEFAULT_OUTPUT_LEN);
  }

  private StructuredOutputDataset(Common common, String path, int outputLen) {
    super(common);
    this.path = path;
    this.outputLen = outputLen;
  }

  @Override
  StructuredOutputDataset with(Common common) {
    return new StructuredOutputDataset(common, path, outputLen);
  }

  /** Output tokens of every request (default {@value #DEFAULT_OUTPUT_LEN}). */
  public StructuredOutputDataset outputLen(int tokens) {
    atLeast("output length", tokens, 1);
    return new StructuredOutputDataset(common, path, tokens);
  }

  @Override
  public String name() {
    return "structured_output";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    List<Row> rows = new ArrayList<>();
    if (path == null) {
      shipped((number, node) -> rows.add(row(node, "shipped schemas line " + number)));
    } else {
      Path file = Path.of(path);
      DataFiles.jsonLines(file, "structured_output",
          (number, node) -> rows.add(row(node, file + " line " + number)));
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(rows, common.seed());
    }
    List<SampleRequest> requests = new ArrayList<>();
    for (int i = 0; i < rows.size() && requests.size() < common.numPrompts(); i++) {
      Row r = rows.get(i);
      requests.add(new SampleRequest(r.prompt(), tokenizer.countWithSpecialTokens(r.prompt()),
          outputLen, common.id(i), Map.of(RESPONSE_FORMAT, r.responseFormat())));
    }
    String source = path == null ? "the shipped schemas" : path;
    int copies = Sampling.oversample(requests, common, "structured_output " + source);
    return Sampling.done(name(), requests, rows.size() + " schemas of " + source + ", "
        + copies + " repeated to reach " + common.numPrompts());
  }

  /** One schema: the prompt sent (with the schema) and the response format asking for it. */
  record Row(String prompt, Map<String, Object> responseFormat) {}

  static Row row(JsonNode node, String where) {
    JsonNode name = node.get("name");
    JsonNode prompt = node.get("prompt");
    JsonNode schema = node.get("schema");
    if (name == null || !name.isTextual() || prompt == null || !prompt.isTextual()
        || schema == null || !schema.isObject()) {
      throw new DatasetException(where + ": a structured_output line is {\"name\": text, "
          + "\"prompt\": text, \"schema\": object}");
    }
    String schemaJson;
    try {
      schemaJson = DataFiles.JSON.writeValueAsString(schema);
    } catch (JsonProcessingException e) {
      throw new DatasetException(where + ": " + e.getOriginalMessage());
    }
    Map<String, Object> schemaMap = DataFiles.JSON.convertValue(schema,
        DataFiles.JSON.getTypeFactory().constructMapType(Map.class, String.class, Object.class));
    String text = prompt.textValue() + "\nAnswer with JSON only, following this schema: "
        + schemaJson;
    return new Row(text, Map.of("type", "json_schema",
        "json_schema", Map.of("name", name.textValue(), "schema", schemaMap)));
  }

  /** The lines of the shipped file, read from the jar. */
  private static void shipped(DataFiles.JsonVisitor visitor) {
    try (InputStream in = StructuredOutputDataset.class.getResourceAsStream(SHIPPED)) {
      if (in == null) {
        throw new DatasetException("the shipped structured_output schemas are missing from the "
            + "plugin's jar (" + SHIPPED + ")");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in,
          StandardCharsets.UTF_8));
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (!line.isBlank()) {
          visitor.accept(number, DataFiles.JSON.readTree(line));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
