package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.internal.hub.FakeHub.Response;
import dev.gatlingllm.internal.hub.FakeHub;
import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.internal.hub.HubException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HfDatasetTest {

  static final Tokenizer GPT2 = Gpt2.TOKENIZER;
  static final String VICUNA = "Aeala/ShareGPT_Vicuna_unfiltered";
  static final Path SHAREGPT_JSON = Path.of("datasets/sharegpt/sharegpt_sample.json");
  static final Path SHAREGPT_PARQUET = Path.of("datasets/hf/sharegpt_vicuna_sample.parquet");
  static final Path CODER_JSONL = Path.of("datasets/hf/instructcoder_sample.jsonl");
  static final Path AIMO_JSONL = Path.of("datasets/hf/aimo_sample.jsonl");
  static final Path MTBENCH_JSONL = Path.of("datasets/hf/mtbench_sample.jsonl");
  static final Path BLAZEDIT_JSONL = Path.of("datasets/hf/blazedit_sample.jsonl");
  static final Path HYPARQUET = Path.of("src/test/resources/dataset");

  @TempDir Path dir;

  static List<Map<String, Object>> rows(Path file) {
    List<Map<String, Object>> rows = new ArrayList<>();
    DataFiles.jsonRecords(file, "test", (n, node) -> rows.add(ParquetTestFiles.toMap(node)));
    return rows;
  }

  @Test
  void conversationParquetSamplesExactlyLikeTheShareGptFileItWasMadeFrom() {
    List<SampleRequest> expected = Datasets.shareGpt(SHAREGPT_JSON).numPrompts(60).seed(3)
        .sample(GPT2).requests();
    assertEquals(expected, Datasets.hf(SHAREGPT_PARQUET.toString()).hfName(VICUNA)
        .numPrompts(60).seed(3).sample(GPT2).requests());
    // without --hf-name the shape is recognised from the columns
    assertEquals(expected, Datasets.hf(SHAREGPT_PARQUET.toString()).numPrompts(60).seed(3)
        .sample(GPT2).requests());
  }

  @Test
  void parquetWrittenByAnotherImplementationIsReadTheSame() throws IOException {
    // hyparquet_conversations.parquet holds the first 60 entries of the ShareGPT sample
    List<Object> first60 = DataFiles.JSON.readValue(SHAREGPT_JSON.toFile(),
        new com.fasterxml.jackson.core.type.TypeReference<List<Object>>() {}).subList(0, 60);
    Path json = dir.resolve("first60.json");
    DataFiles.JSON.writeValue(json.toFile(), first60);
    assertEquals(Datasets.shareGpt(json).numPrompts(30).seed(5).sample(GPT2).requests(),
        Datasets.hf(HYPARQUET.resolve("hyparquet_conversations.parquet").toString())
            .numPrompts(30).seed(5).sample(GPT2).requests());

    assertEquals(
        Datasets.hf(CODER_JSONL.toString()).hfName("likaixin/InstructCoder").numPrompts(25)
            .sample(GPT2).requests(),
        Datasets.hf(HYPARQUET.resolve("hyparquet_instructcoder.parquet").toString())
            .hfName("likaixin/InstructCoder").numPrompts(25).sample(GPT2).requests());
  }

  @Test
  void everySupportedCompressionCodecIsReadWithoutHadoop() throws IOException {
    List<SampleRequest> expected = Datasets.hf(CODER_JSONL.toString()).numPrompts(25)
        .sample(GPT2).requests();
    for (CompressionCodecName codec : List.of(CompressionCodecName.UNCOMPRESSED,
        CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.ZSTD,
        CompressionCodecName.LZ4_RAW)) {
      Path file = dir.resolve("coder-" + codec + ".parquet");
      ParquetTestFiles.write(file, rows(CODER_JSONL), codec);
      assertEquals(expected, Datasets.hf(file.toString()).numPrompts(25).sample(GPT2)
          .requests(), codec.name());
    }
    assertThrows(ClassNotFoundException.class,
        () -> Class.forName("org.apache.hadoop.conf.Configuration"),
        "Hadoop must not be on the classpath for this test to mean anything");
  }

  @Test
  void instructCoderPromptsJoinCodeAndInstruction() {
    List<Map<String, Object>> source = rows(CODER_JSONL);
    Samples samples = Datasets.hf(CODER_JSONL.toString()).numPrompts(25).noOversample(true)
        .sample(GPT2);
    assertEquals(25, samples.size());
    Set<String> expectedPrompts = new java.util.HashSet<>();
    source.forEach(r -> expectedPrompts.add(r.get("input") + "\n\n" + r.get("instruction")
        + " Output only the code, without any explanation."));
    for (SampleRequest r : samples.requests()) {
      assertTrue(expectedPrompts.contains(r.prompt()), r.toString());
      assertEquals(200, r.expectedOutputLen());
      assertEquals(GPT2.count(r.prompt()), r.promptLen());
    }
    Datasets.hf(CODER_JSONL.toString()).outputLen(50).numPrompts(5).sample(GPT2).requests()
        .forEach(r -> assertEquals(50, r.expectedOutputLen()));
  }

  @Test
  void aimoOutputLengthsComeFromTheReferenceSolution() {
    Map<String, Integer> solutionTokens = new java.util.HashMap<>();
    rows(AIMO_JSONL).forEach(r -> solutionTokens.merge((String) r.get("problem"),
        GPT2.count((String) r.get("solution")), Math::max));
    Samples samples = Datasets.hf(AIMO_JSONL.toString()).hfName("AI-MO/aimo-validation-aime")
        .numPrompts(10).seed(2).sample(GPT2);
    assertEquals(10, samples.size());
    for (SampleRequest r : samples.requests()) {
      assertTrue(solutionTokens.containsKey(r.prompt()), r.toString());
      assertTrue(r.expectedOutputLen() <= solutionTokens.get(r.prompt()));
      assertTrue(r.expectedOutputLen() >= 4);
    }
  }

  @Test
  void mtBenchUsesTheFirstTurnFromJsonLinesOrAJsonArray() throws IOException {
    List<Map<String, Object>> source = rows(MTBENCH_JSONL);
    Set<Object> firstTurns = new java.util.HashSet<>();
    source.forEach(r -> firstTurns.add(((List<?>) r.get("turns")).get(0)));
    Samples samples = Datasets.hf(MTBENCH_JSONL.toString()).numPrompts(20).sample(GPT2);
    samples.requests().forEach(r -> {
      assertTrue(firstTurns.contains(r.prompt()), r.toString());
      assertEquals(256, r.expectedOutputLen());
    });
    Path array = dir.resolve("mtbench.json");
    DataFiles.JSON.writeValue(array.toFile(), source);
    assertEquals(samples.requests(), Datasets.hf(array.toString()).hfName("philschmid/mt-bench")
        .numPrompts(20).sample(GPT2).requests());
  }

  @Test
  void blazeditKeepsOnlyRowsInTheDistanceRange() {
    List<Map<String, Object>> source = rows(BLAZEDIT_JSONL);
    long inRange = source.stream().map(r -> ((Number) r.get("norm_distance")).doubleValue())
        .filter(d -> d >= 0.3 && d <= 0.6).count();
    Samples samples = Datasets.hf(BLAZEDIT_JSONL.toString()).hfName("vdaita/edit_5k_char")
        .blazeditMinDistance(0.3).blazeditMaxDistance(0.6).numPrompts(100).noOversample(true)
        .sample(GPT2);
    assertEquals(inRange, samples.size());
    for (SampleRequest r : samples.requests()) {
      Map<String, Object> row = source.stream()
          .filter(s -> r.prompt().contains((String) s.get("code"))
              && r.prompt().contains((String) s.get("change_request")))
          .findFirst().orElseThrow();
      double d = ((Number) row.get("norm_distance")).doubleValue();
      assertTrue(d >= 0.3 && d <= 0.6, "distance " + d);
      assertEquals(4000, r.expectedOutputLen());
    }
    DatasetException none = assertThrows(DatasetException.class,
        () -> Datasets.hf(BLAZEDIT_JSONL.toString()).blazeditMinDistance(0.9991)
            .blazeditMaxDistance(0.9992).sample(GPT2));
    assertTrue(none.getMessage().contains("filtered out"), none.getMessage());
    IllegalArgumentException conflict = assertThrows(IllegalArgumentException.class,
        () -> Datasets.hf(BLAZEDIT_JSONL.toString()).blazeditMinDistance(0.8)
            .blazeditMaxDistance(0.2).sample(GPT2));
    assertTrue(conflict.getMessage().contains("larger than blazedit-max-distance"),
        conflict.getMessage());
  }

  @Test
  void hubDatasetsAreDownloadedOnceThroughTheHubClient() throws IOException {
    try (FakeHub hub = new FakeHub()) {
      hub.route("/api/datasets/" + VICUNA + "/parquet/default/train",
              Response.ok("[\"/files/0000.parquet\"]".getBytes()))
          .route("/files/0000.parquet", Response.ok(Files.readAllBytes(SHAREGPT_PARQUET)));
      HubClient client = HubClient.builder().endpoint(hub.url()).home(dir).build();
      List<SampleRequest> local = Datasets.hf(SHAREGPT_PARQUET.toString()).numPrompts(20)
          .sample(GPT2).requests();
      assertEquals(local, Datasets.hf(VICUNA).hub(client).numPrompts(20).sample(GPT2)
          .requests());
      int requests = hub.requests().size();
      assertEquals(2, requests);
      assertEquals(local, Datasets.hf(VICUNA).hub(client).numPrompts(20).sample(GPT2)
          .requests());
      assertEquals(requests, hub.requests().size(), "second run reads the cache");

      // subset and split pick the hub's Parquet conversion folder
      HubException missing = assertThrows(HubException.class, () -> Datasets.hf(VICUNA)
          .hub(client).subset("v2").split("test").sample(GPT2));
      assertTrue(missing.getMessage().contains("/parquet/v2/test"), missing.getMessage());
    }
  }

  @Test
  void unknownIdsAndUnrecognisedFilesAreRefusedBeforeAnyDownload() throws IOException {
    try (FakeHub hub = new FakeHub()) {
      HubClient client = HubClient.builder().endpoint(hub.url()).home(dir).build();
      DatasetException unknown = assertThrows(DatasetException.class,
          () -> Datasets.hf("someone/their-dataset").hub(client).sample(GPT2));
      assertTrue(unknown.getMessage().contains("Unsupported Hugging Face dataset "
          + "'someone/their-dataset'"), unknown.getMessage());
      assertTrue(unknown.getMessage().contains("likaixin/InstructCoder")
          && unknown.getMessage().contains(VICUNA), unknown.getMessage());
      assertEquals(0, hub.requests().size());
    }

    Path odd = Files.writeString(dir.resolve("odd.jsonl"), "{\"question\": \"q\"}\n");
    DatasetException shape = assertThrows(DatasetException.class,
        () -> Datasets.hf(odd.toString()).sample(GPT2));
    assertTrue(shape.getMessage().contains("[question]")
        && shape.getMessage().contains("--hf-name"), shape.getMessage());

    DatasetException badName = assertThrows(DatasetException.class,
        () -> Datasets.hf(CODER_JSONL.toString()).hfName("nope/nope").sample(GPT2));
    assertTrue(badName.getMessage().contains("Supported ids"), badName.getMessage());

    DatasetException missing = assertThrows(DatasetException.class,
        () -> Datasets.hf("data/missing.parquet").sample(GPT2));
    assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

    Path garbage = Files.write(dir.resolve("garbage.parquet"), "not parquet at all".getBytes());
    DatasetException corrupt = assertThrows(DatasetException.class,
        () -> Datasets.hf(garbage.toString()).hfName(VICUNA).sample(GPT2));
    assertTrue(corrupt.getMessage().startsWith("Cannot read Parquet file"),
        corrupt.getMessage());

    Path wrongColumns = dir.resolve("wrong.parquet");
    ParquetTestFiles.write(wrongColumns, List.of(Map.of("text", "hello")),
        CompressionCodecName.SNAPPY);
    DatasetException noRows = assertThrows(DatasetException.class,
        () -> Datasets.hf(wrongColumns.toString()).hfName(VICUNA).sample(GPT2));
    assertTrue(noRows.getMessage().contains("no row usable as ShareGPT-style conversations"),
        noRows.getMessage());
  }

  @Test
  void seedsShuffleRowsAndFoldersOfFilesAreRead() throws IOException {
    HfDataset spec = Datasets.hf(MTBENCH_JSONL.toString()).numPrompts(10);
    assertEquals(spec.seed(1).sample(GPT2).requests(), spec.seed(1).sample(GPT2).requests());
    assertNotEquals(spec.seed(1).sample(GPT2).requests(), spec.seed(2).sample(GPT2).requests());

    Path folder = Files.createDirectories(dir.resolve("parts"));
    List<Map<String, Object>> all = rows(CODER_JSONL);
    ParquetTestFiles.write(folder.resolve("a.parquet"), all.subList(0, 10),
        CompressionCodecName.SNAPPY);
    ParquetTestFiles.write(folder.resolve("b.parquet"), all.subList(10, all.size()),
        CompressionCodecName.SNAPPY);
    Files.writeString(folder.resolve("README.txt"), "not data");
    assertEquals(Datasets.hf(CODER_JSONL.toString()).numPrompts(25).noOversample(true)
            .sample(GPT2).requests(),
        Datasets.hf(folder.toString()).numPrompts(25).noOversample(true).sample(GPT2)
            .requests());
  }
}
