package dev.gatlingllm.bench;

import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.tokenizer.Tokenizer;

/**
 * Measures how often the random dataset's prompts re-encode to exactly their target length
 * with the GPT-2 tokenizer, and how long sampling takes, for several input lengths.
 *
 * <pre>
 * ./mvnw -B -q test-compile exec:java \
 *   -Dexec.mainClass=dev.gatlingllm.bench.RandomDatasetExactnessBench [-Dexec.args="1000 0 1 2"]
 * </pre>
 * Arguments: number of prompts, then seeds (default 1000 prompts, seeds 0 1 2).
 */
public final class RandomDatasetExactnessBench {

  private RandomDatasetExactnessBench() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long[] seeds = args.length > 1
        ? java.util.Arrays.stream(args, 1, args.length).mapToLong(Long::parseLong).toArray()
        : new long[] {0, 1, 2};
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      System.out.printf("%-10s %-6s %-6s %-10s %-12s %-10s%n", "input_len", "prefix", "seed",
          "exact", "recount_ok", "seconds");
      for (int inputLen : new int[] {32, 256, 1024, 4096}) {
        for (int prefix : new int[] {0, 64}) {
          for (long seed : seeds) {
            long t0 = System.nanoTime();
            Samples s = Datasets.random().inputLen(inputLen).prefixLen(prefix).numPrompts(n)
                .seed(seed).sample(gpt2);
            double secs = (System.nanoTime() - t0) / 1e9;
            int target = inputLen + prefix;
            long exact = s.requests().stream().filter(r -> r.promptLen() == target).count();
            long recount = s.requests().stream()
                .filter(r -> gpt2.count(r.prompt()) == r.promptLen()).count();
            System.out.printf("%-10d %-6d %-6d %-10s %-12s %-10.2f%n", inputLen, prefix, seed,
                exact + "/" + n, recount + "/" + n, secs);
          }
        }
      }
      SampleRequest example = Datasets.random().inputLen(16).numPrompts(1).sample(gpt2)
          .requests().get(0);
      System.out.println("example 16-token prompt: " + example);
    }
  }
}
