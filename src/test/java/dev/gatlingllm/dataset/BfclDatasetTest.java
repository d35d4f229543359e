package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.internal.hub.HubException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BfclDatasetTest {

  static final String FOLDER = "datasets/hf/bfcl";

  private static JsonNode json(String text) throws Exception {
    return DataFiles.JSON.readTree(text);
  }

  @Test
  void bfclTypeNamesBecomeJsonSchemaOnesAtEveryDepth() throws Exception {
    Object schema = BfclDataset.schema(json("{\"type\": \"dict\", \"properties\": {"
        + "\"x\": {\"type\": \"float\"}, \"pair\": {\"type\": \"tuple\", \"items\": "
        + "{\"type\": \"integer\"}}, \"v\": {\"type\": \"any\", \"description\": \"d\"}}, "
        + "\"required\": [\"x\"]}"));
    assertEquals(Map.of("type", "object", "properties", Map.of(
        "x", Map.of("type", "number"),
        "pair", Map.of("type", "array", "items", Map.of("type", "integer")),
        "v", Map.of("description", "d")), "required", List.of("x")), schema);
  }

  @Test
  void aQuestionsFirstTurnIsThePromptAndItsFunctionsTheTools() throws Exception {
    BfclDataset.Row row = BfclDataset.row(json("{\"id\": \"q\", \"question\": [[{\"role\": "
        + "\"system\", \"content\": \"Call tools.\"}, {\"role\": \"user\", \"content\": "
        + "\"Weather?\"}], [{\"role\": \"user\", \"content\": \"later turn\"}]], \"function\": "
        + "[{\"name\": \"w\", \"description\": \"weather\", \"parameters\": {\"type\": \"dict\","
        + " \"properties\": {}}}]}"), "here");
    assertEquals("Call tools.\n\nWeather?", row.prompt());
    assertEquals(List.of(Map.of("type", "function", "function", Map.of("name", "w",
        "description", "weather", "parameters", Map.of("type", "object", "properties",
            Map.of())))), row.tools());
    assertEquals("[{\"type\":\"function\",\"function\":{\"name\":\"w\",\"description\":"
        + "\"weather\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}}]",
        row.toolsJson());
    DatasetException bad = assertThrows(DatasetException.class,
        () -> BfclDataset.row(json("{\"question\": []}"), "f line 3"));
    assertTrue(bad.getMessage().startsWith("f line 3 has no \"question\""), bad.getMessage());
  }

  @Test
  void theChosenCategoriesOfAFolderAreReadWithTheirToolsInTheFeeder() {
    DatasetSpec spec = Datasets.fromArgs("--dataset-name", "hf", "--dataset-path", FOLDER,
        "--hf-name", BfclDataset.HUB_ID, "--bfcl-categories", "simple, multiple",
        "--num-prompts", "5", "--hf-output-len", "64");
    assertInstanceOf(BfclDataset.class, spec);
    Samples s = spec.sample(Gpt2.TOKENIZER);
    // the sample holds 3 simple and 2 multiple questions
    assertEquals(5, s.size());
    assertTrue(s.requests().stream().map(SampleRequest::prompt).collect(Collectors.toSet())
        .contains("You answer with function calls only.\n\nWhich books did the library lend "
            + "on 2 May?"));
    for (SampleRequest r : s.requests()) {
      assertEquals(64, r.expectedOutputLen());
      List<?> tools = (List<?>) r.extras().get(BfclDataset.TOOLS);
      assertTrue(tools.size() == 1 || tools.size() == 2, r.prompt());
      // the prompt and the tools' JSON are both input
      assertTrue(r.promptLen() > Gpt2.TOKENIZER.countWithSpecialTokens(r.prompt()));
    }
    assertEquals(Set.of(1, 2), s.requests().stream()
        .map(r -> ((List<?>) r.extras().get(BfclDataset.TOOLS)).size())
        .collect(Collectors.toSet()), "simple questions have one function, multiple two");
  }

  @Test
  void oneCategoryByDefaultMissingFilesAndStrayFlagsAreRefused() {
    Samples simple = new BfclDataset(FOLDER).categories("simple").numPrompts(3)
        .sample(Gpt2.TOKENIZER);
    assertEquals(3, simple.size());
    DatasetException missing = assertThrows(DatasetException.class,
        () -> new BfclDataset(FOLDER).sample(Gpt2.TOKENIZER));
    // the default categories start with simple, multiple, then parallel, which the sample lacks
    assertTrue(missing.getMessage().startsWith("BFCL category 'parallel' not found"),
        missing.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new BfclDataset(FOLDER).categories("BFCL_v3_simple.json"));
    IllegalArgumentException stray = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "hf", "--dataset-path",
            "likaixin/InstructCoder", "--bfcl-categories", "simple"));
    assertTrue(stray.getMessage().startsWith("--bfcl-categories is for the BFCL dataset"),
        stray.getMessage());
  }

  @Test
  void theHubIdDownloadsTheCategoryFiles(@TempDir Path cache) {
    HubClient offline = HubClient.builder().home(cache).hubCache(cache.resolve("hub"))
        .offline(true).build();
    HubException e = assertThrows(HubException.class,
        () -> new BfclDataset(BfclDataset.HUB_ID).categories("simple").hub(offline)
            .numPrompts(1).sample(Gpt2.TOKENIZER));
    assertTrue(e.getMessage().contains("dataset " + BfclDataset.HUB_ID
        + " file BFCL_v3_simple.json is not cached"), e.getMessage());
  }
}
