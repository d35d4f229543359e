package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.JsonSchema;
import dev.gatlingllm.internal.dataset.DatasetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StructuredOutputDatasetTest {

  static final Path SAMPLE = Path.of("datasets/structured_output/schemas.jsonl");

  @Test
  void theShippedSchemasAreTheSampleUnderDatasets() throws Exception {
    try (var in = StructuredOutputDataset.class.getResourceAsStream(
        StructuredOutputDataset.SHIPPED)) {
      assertEquals(Files.readString(SAMPLE), new String(in.readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  @Test
  void eachRequestAsksForItsSchemaAndTellsItInThePrompt() {
    List<SampleRequest> requests = Datasets.structuredOutput().numPrompts(20).seed(3)
        .sample(Gpt2.TOKENIZER).requests();
    assertEquals(20, requests.size());
    Set<String> names = new HashSet<>();
    for (SampleRequest r : requests) {
      @SuppressWarnings("unchecked")
      Map<String, Object> format = (Map<String, Object>) r.extras()
          .get(StructuredOutputDataset.RESPONSE_FORMAT);
      assertEquals("json_schema", format.get("type"));
      @SuppressWarnings("unchecked")
      Map<String, Object> spec = (Map<String, Object>) format.get("json_schema");
      names.add((String) spec.get("name"));
      JsonSchema.of(spec.get("schema")); // an object the check can read
      assertTrue(r.prompt().contains("\nAnswer with JSON only, following this schema: {"),
          r.prompt());
      assertEquals(Gpt2.TOKENIZER.countWithSpecialTokens(r.prompt()), r.promptLen());
      assertEquals(StructuredOutputDataset.DEFAULT_OUTPUT_LEN, r.expectedOutputLen());
    }
    assertEquals(8, names.size(), "the eight shipped schemas, then repeated: " + names);
  }

  @Test
  void theSameSeedGivesTheSameOrder() {
    List<String> a = Datasets.structuredOutput().numPrompts(8).seed(7).outputLen(32)
        .sample(Gpt2.TOKENIZER).requests().stream().map(SampleRequest::prompt).toList();
    List<String> b = Datasets.structuredOutput().numPrompts(8).seed(7).outputLen(32)
        .sample(Gpt2.TOKENIZER).requests().stream().map(SampleRequest::prompt).toList();
    List<String> c = Datasets.structuredOutput().numPrompts(8).disableShuffle(true)
        .sample(Gpt2.TOKENIZER).requests().stream().map(SampleRequest::prompt).toList();
    assertEquals(a, b);
    assertTrue(c.get(0).startsWith("Extract the person described here"), c.get(0));
  }

  @Test
  void aFileOfYourOwnIsReadFromDatasetPath(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mine.jsonl");
    Files.writeString(file, "{\"name\": \"n\", \"prompt\": \"Say a number.\", \"schema\": "
        + "{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\"}}}}\n");
    Samples s = Datasets.fromArgs("--dataset-name", "structured_output", "--dataset-path",
        file.toString(), "--num-prompts", "2").sample(Gpt2.TOKENIZER);
    assertEquals(2, s.requests().size());
    assertTrue(s.requests().get(0).prompt().startsWith("Say a number."));
    Files.writeString(file, "{\"name\": \"n\", \"prompt\": \"p\"}\n");
    DatasetException bad = assertThrows(DatasetException.class,
        () -> Datasets.structuredOutput(file.toString()).numPrompts(1).sample(Gpt2.TOKENIZER));
    assertTrue(bad.getMessage().endsWith("a structured_output line is {\"name\": text, "
        + "\"prompt\": text, \"schema\": object}"), bad.getMessage());
  }
}
