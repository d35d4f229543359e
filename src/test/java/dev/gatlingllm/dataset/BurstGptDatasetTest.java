package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BurstGptDatasetTest {

  static final Path SAMPLE = Path.of("datasets/burstgpt/burstgpt_sample.csv");
  static final String HEADER =
      "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n";

  @TempDir Path dir;

  Path csv(String rows) throws IOException {
    return Files.writeString(dir.resolve("trace-" + System.nanoTime() + ".csv"), HEADER + rows);
  }

  Path fixture() throws IOException {
    return csv("""
        1.5,GPT-4,12,30,42,Conversation log
        2.0,ChatGPT,50,60,110,Conversation log
        2.5,GPT-4,20,0,20,API log
        3.0,GPT-4,0,15,15,API log
        4.25,GPT-4,7,9,16,"Conversation log"
        5.0,GPT-4,33,44,77,API log
        """);
  }

  @Test
  void onlyGpt4RowsWithTokensAreUsedAndPromptsHaveTheRequestTokenCount() throws IOException {
    Samples samples = Datasets.burstGpt(fixture()).numPrompts(3).seed(2).sample(Gpt2.TOKENIZER);
    assertEquals(3, samples.size());
    // without repetition: the three usable rows, each once
    Map<Integer, Integer> outputByPrompt = Map.of(12, 30, 7, 9, 33, 44);
    Map<Integer, Double> timeByPrompt = Map.of(12, 1.5, 7, 4.25, 33, 5.0);
    assertEquals(outputByPrompt.keySet(), samples.requests().stream()
        .map(SampleRequest::promptLen).collect(Collectors.toSet()));
    for (SampleRequest r : samples.requests()) {
      assertEquals(outputByPrompt.get(r.promptLen()), r.expectedOutputLen());
      assertEquals(r.promptLen(), Gpt2.TOKENIZER.count(r.prompt()), "synthesised exactly");
      assertEquals(timeByPrompt.get(r.promptLen()), r.extras().get(BurstGptDataset.TIMESTAMP));
      assertEquals(timeByPrompt.get(r.promptLen()),
          r.toFeederRecord().get(BurstGptDataset.TIMESTAMP));
    }
  }

  @Test
  void moreRequestsThanRowsDrawsWithRepetitionUnlessAskedNotTo() throws IOException {
    Path file = fixture();
    Samples many = Datasets.burstGpt(file).numPrompts(40).sample(Gpt2.TOKENIZER);
    assertEquals(40, many.size());
    Set<Integer> lens = new HashSet<>();
    many.requests().forEach(r -> lens.add(r.promptLen()));
    assertEquals(Set.of(12, 7, 33), lens);
    assertEquals(3, Datasets.burstGpt(file).numPrompts(40).noOversample(true)
        .sample(Gpt2.TOKENIZER).size());
  }

  @Test
  void theShippedTraceIsSampledReproducibly() {
    BurstGptDataset spec = Datasets.burstGpt(SAMPLE).numPrompts(50);
    Samples a = spec.seed(0).sample(Gpt2.TOKENIZER);
    assertEquals(50, a.size());
    long exact = a.requests().stream()
        .filter(r -> Gpt2.TOKENIZER.count(r.prompt()) == r.promptLen()).count();
    assertEquals(50, exact);
    assertTrue(a.requests().stream().allMatch(r -> r.expectedOutputLen() > 0));
    assertEquals(a.requests(), spec.seed(0).sample(Gpt2.TOKENIZER).requests());
    assertNotEquals(a.requests(), spec.seed(1).sample(Gpt2.TOKENIZER).requests());
    // ChatGPT rows are there too, on request
    assertEquals(50, spec.model("ChatGPT").seed(0).sample(Gpt2.TOKENIZER).size());
  }

  @Test
  void malformedTracesAreExplainedWithTheLine() throws IOException {
    Path noColumn = Files.writeString(dir.resolve("a.csv"), "Timestamp,Model,Tokens\n1,GPT-4,3\n");
    DatasetException column = assertThrows(DatasetException.class,
        () -> Datasets.burstGpt(noColumn).sample(Gpt2.TOKENIZER));
    assertTrue(column.getMessage().contains("no 'Request tokens' column"), column.getMessage());

    Path notNumber = csv("1,GPT-4,12,30,42,x\n2,GPT-4,many,3,3,x\n");
    DatasetException number = assertThrows(DatasetException.class,
        () -> Datasets.burstGpt(notNumber).sample(Gpt2.TOKENIZER));
    assertTrue(number.getMessage().contains("line 3") && number.getMessage().contains("many"),
        number.getMessage());

    Path ragged = csv("1,GPT-4,12,30\n");
    DatasetException fields = assertThrows(DatasetException.class,
        () -> Datasets.burstGpt(ragged).sample(Gpt2.TOKENIZER));
    assertTrue(fields.getMessage().contains("line 2 has 4 fields"), fields.getMessage());

    Path unterminated = csv("1,GPT-4,12,30,42,\"open\n");
    assertThrows(DatasetException.class,
        () -> Datasets.burstGpt(unterminated).sample(Gpt2.TOKENIZER));

    Path nothingUsable = csv("1,ChatGPT,12,30,42,x\n2,GPT-4,3,0,3,x\n");
    DatasetException empty = assertThrows(DatasetException.class,
        () -> Datasets.burstGpt(nothingUsable).sample(Gpt2.TOKENIZER));
    assertTrue(empty.getMessage().contains("no row with Model 'GPT-4'"), empty.getMessage());

    Path blank = Files.writeString(dir.resolve("empty.csv"), "");
    assertThrows(DatasetException.class, () -> Datasets.burstGpt(blank).sample(Gpt2.TOKENIZER));
  }

  @Test
  void csvFieldsMayBeQuoted() {
    assertEquals(List.of("a", "b,c", "say \"hi\"", ""),
        BurstGptDataset.Csv.split("a,\"b,c\",\"say \"\"hi\"\"\",", Path.of("x"), 1));
  }
}
