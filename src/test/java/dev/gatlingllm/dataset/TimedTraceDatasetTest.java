package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimedTraceDatasetTest {

  static final Path SAMPLE = Path.of("datasets/timed_trace/mooncake_sample.jsonl");

  @TempDir Path dir;

  private Path trace(String... lines) throws IOException {
    Path file = dir.resolve("trace.jsonl");
    Files.write(file, List.of(lines));
    return file;
  }

  private static int[] ids(SampleRequest r) {
    return Gpt2.TOKENIZER.encode(r.prompt());
  }

  @Test
  void equalHashIdsAreEqualBlocksAndAPartialBlockIsTheStartOfItsBlock() throws IOException {
    // blocks of 8: request 0 = block 7 + the first 4 tokens of block 11 (12 tokens);
    // request 1 = block 7 + block 19; request 2 = block 7 + block 11 (16 tokens)
    Path file = trace(
        "{\"ts\": 0, \"input_length\": 12, \"output_length\": 3, \"hash_ids\": [7, 11]}",
        "{\"ts\": 1, \"input_length\": 16, \"output_length\": 3, \"hash_ids\": [7, 19]}",
        "{\"ts\": 2, \"input_length\": 16, \"output_length\": 3, \"hash_ids\": [7, 11]}");
    Samples samples = Datasets.fromArgs("--dataset-name", "timed_trace", "--dataset-path",
        file.toString(), "--timed-trace-chunk-hash-size", "8", "--timed-trace-label-timestamp",
        "ts").sample(Gpt2.TOKENIZER);
    List<SampleRequest> r = samples.requests();
    assertEquals(3, r.size());
    int[] p0 = ids(r.get(0));
    int[] p1 = ids(r.get(1));
    int[] p2 = ids(r.get(2));
    assertEquals(List.of(12, 16, 16), List.of(p0.length, p1.length, p2.length),
        "the text encodes to exactly the trace's input lengths");
    assertEquals(List.of(12, 16, 16), r.stream().map(SampleRequest::promptLen).toList());
    assertArrayEquals(p0, Arrays.copyOf(p2, 12), "request 0 is the start of request 2");
    assertTrue(r.get(2).prompt().startsWith(r.get(0).prompt()), "a shared text prefix too");
    assertArrayEquals(Arrays.copyOf(p0, 8), Arrays.copyOf(p1, 8), "block 7 is shared");
    assertFalse(Arrays.equals(Arrays.copyOfRange(p1, 8, 16), Arrays.copyOfRange(p2, 8, 16)),
        "blocks 19 and 11 differ");
    assertEquals(List.of(3, 3, 3), r.stream().map(SampleRequest::expectedOutputLen).toList());
  }

  @Test
  void tokensTheHashIdsDoNotCoverAreEachRequestsOwn() throws IOException {
    // block 5 covers 8 of the 20 tokens; the other 12 are random and differ between requests
    Path file = trace(
        "{\"timestamp\": 0, \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [5]}",
        "{\"timestamp\": 0, \"input_length\": 20, \"output_length\": 2, \"hash_ids\": [5]}",
        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2}");
    List<SampleRequest> r = Datasets.timedTrace(file).chunkHashSize(8).sample(Gpt2.TOKENIZER)
        .requests();
    int[] a = ids(r.get(0));
    int[] b = ids(r.get(1));
    assertEquals(List.of(20, 20, 10), List.of(a.length, b.length, ids(r.get(2)).length));
    assertArrayEquals(Arrays.copyOf(a, 8), Arrays.copyOf(b, 8));
    assertFalse(Arrays.equals(Arrays.copyOfRange(a, 8, 20), Arrays.copyOfRange(b, 8, 20)));
  }

  @Test
  void mooncakeSampleSharesItsPrefixesAndReplaysItsMillisecondsAsSeconds() {
    Samples samples = LlmDsl.timedTrace(SAMPLE.toString()).secMultiplier(0.001)
        .sample(Gpt2.TOKENIZER);
    // the default --num-prompts 1000 takes the 10 lines once, in order: a trace is not repeated
    assertEquals(10, samples.size());
    List<SampleRequest> r = samples.requests();
    assertEquals(List.of(40, 56, 33, 48, 20, 64, 17, 40, 16, 44),
        r.stream().map(SampleRequest::promptLen).toList());
    assertEquals(List.of(8, 6, 4, 8, 5, 7, 3, 6, 4, 8),
        r.stream().map(SampleRequest::expectedOutputLen).toList());
    for (SampleRequest request : r) {
      assertEquals(request.promptLen(), Gpt2.TOKENIZER.count(request.prompt()), request.requestId());
    }
    // lines 0, 3 and 9 have hash ids [0, 1, 2]: 40, 48 and 44 tokens of the same three blocks
    assertTrue(r.get(3).prompt().startsWith(r.get(0).prompt()));
    assertTrue(r.get(3).prompt().startsWith(r.get(9).prompt()));
    // lines 0 and 1 share blocks 0 and 1 (32 tokens), then 2 and 3 differ
    assertArrayEquals(Arrays.copyOf(ids(r.get(0)), 32), Arrays.copyOf(ids(r.get(1)), 32));
    assertNotEquals(ids(r.get(0))[32], ids(r.get(1))[32]);
    // line 4 [7, 8] shares nothing with line 0 but block 7 with line 6 [7, 9]
    assertArrayEquals(Arrays.copyOf(ids(r.get(4)), 16), Arrays.copyOf(ids(r.get(6)), 16));
    assertNotEquals(ids(r.get(4))[0], ids(r.get(0))[0]);

    double[] expected = {0, 0, 0.12, 0.25, 0.3, 0.48, 0.5, 0.73, 0.8, 1.0};
    assertArrayEquals(expected, samples.arrivalSeconds().orElseThrow(), 1e-12);
    assertEquals(0.73, samples.records().get(7).get(TimedTraceDataset.TIMESTAMP));
    assertEquals(ArrivalTrace.ofSeconds(expected), LlmDsl.traceArrivals(samples));
  }

  @Test
  void numPromptsTakesTheFirstLinesInTraceOrderWhateverTheShuffle() {
    Samples first4 = Datasets.fromArgs("--dataset-name", "timed_trace", "--dataset-path",
        SAMPLE.toString(), "--num-prompts", "4", "--seed", "9").sample(Gpt2.TOKENIZER);
    assertEquals(List.of(40, 56, 33, 48),
        first4.requests().stream().map(SampleRequest::promptLen).toList());
    assertArrayEquals(new double[] {0, 0, 120, 250}, first4.arrivalSeconds().orElseThrow());
    assertEquals(List.of("0", "1", "2", "3"),
        first4.requests().stream().map(SampleRequest::requestId).toList());
  }

  @Test
  void otherDatasetsCarryNoArrivalTimes() {
    Samples random = Datasets.random().inputLen(8).outputLen(2).numPrompts(2)
        .sample(Gpt2.TOKENIZER);
    assertTrue(random.arrivalSeconds().isEmpty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LlmDsl.traceArrivals(random));
    assertEquals("the random dataset carries no arrival times; only [timed_trace] do",
        e.getMessage());
  }

  @Test
  void aZeroOutputLengthAsksForOneToken() throws IOException {
    Path file = trace("{\"timestamp\": 0, \"input_length\": 4, \"output_length\": 0, "
        + "\"hash_ids\": [1]}");
    assertEquals(1, Datasets.timedTrace(file).sample(Gpt2.TOKENIZER).requests().get(0)
        .expectedOutputLen());
  }

  @Test
  void badLinesAreRefusedWithTheirLineAndField() throws IOException {
    Path backwards = trace(
        "{\"timestamp\": 5, \"input_length\": 4, \"output_length\": 1, \"hash_ids\": [1]}",
        "{\"timestamp\": 2, \"input_length\": 4, \"output_length\": 1, \"hash_ids\": [1]}");
    DatasetException e = assertThrows(DatasetException.class,
        () -> Datasets.timedTrace(backwards).sample(Gpt2.TOKENIZER));
    assertEquals("Timed trace file " + backwards + " line 2: \"timestamp\" 2.0 is before the "
        + "previous line's 5.0; a trace must be in time order", e.getMessage());

    Path noInput = trace("{\"timestamp\": 0, \"output_length\": 1, \"hash_ids\": [1]}");
    e = assertThrows(DatasetException.class,
        () -> Datasets.timedTrace(noInput).sample(Gpt2.TOKENIZER));
    assertEquals("Timed trace file " + noInput + " line 1: \"input_length\" must be a whole "
        + "number >= 1, got null", e.getMessage());

    Path badHash = trace("{\"timestamp\": 0, \"input_length\": 4, \"output_length\": 1, "
        + "\"hash_ids\": [\"a\"]}");
    e = assertThrows(DatasetException.class,
        () -> Datasets.timedTrace(badHash).sample(Gpt2.TOKENIZER));
    assertEquals("Timed trace file " + badHash + " line 1: \"hash_ids\" must hold whole "
        + "numbers, got \"a\"", e.getMessage());
  }

  @Test
  void optionsAreChecked() {
    TimedTraceDataset trace = Datasets.timedTrace(SAMPLE);
    assertEquals("timed-trace-chunk-hash-size must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> trace.chunkHashSize(0)).getMessage());
    assertEquals("timed-trace-sec-multiplier must be a number > 0, got -1.0",
        assertThrows(IllegalArgumentException.class, () -> trace.secMultiplier(-1))
            .getMessage());
    assertEquals("The timed_trace dataset needs --dataset-path",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromArgs("--dataset-name", "timed_trace")).getMessage());
    assertEquals("--dataset-name is random but these flags belong to other datasets: "
            + "--timed-trace-chunk-hash-size (timed_trace dataset)",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromArgs("--timed-trace-chunk-hash-size", "4")).getMessage());
    TimedTraceDataset fromFlags = (TimedTraceDataset) Datasets.fromArgs("--dataset-name",
        "timed_trace", "--dataset-path", SAMPLE.toString(), "--timed-trace-sec-multiplier",
        "0.5", "--timed-trace-label-input-length", "isl", "--timed-trace-label-output-length",
        "osl", "--timed-trace-label-hash-ids", "blocks");
    assertEquals(0.5, fromFlags.secMultiplier());
    assertEquals(16, fromFlags.chunkHashSize());
    assertEquals(new TimedTraceDataset.Labels("timestamp", "isl", "osl", "blocks"),
        fromFlags.labels());
  }
}
