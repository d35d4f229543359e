package dev.gatlingllm.internal.client;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * How long one streamed chunk takes to parse, fast scanner vs Jackson, on vLLM's two common
 * chunk shapes. A benchmark, not a test: run it in a JVM with the forked Gatling JVM's
 * compiler settings, for example
 * {@code java -XX:TieredStopAtLevel=1 -cp <test classpath> dev.gatlingllm.internal.client.ChunkParseBench}.
 * It lives in this package because the parser is package-private.
 */
public final class ChunkParseBench {

  private ChunkParseBench() {}

  public static void main(String[] args) throws Exception {
    String[] chunks = {
        "{\"id\":\"cmpl-8f2a\",\"object\":\"text_completion\",\"created\":1700000000,"
            + "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,"
            + "\"text\":\" the\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],"
            + "\"usage\":null}",
        "{\"id\":\"chatcmpl-8f2a\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
            + "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\" the\"},\"logprobs\":null,\"finish_reason\":null}]}"};
    ChunkFields out = new ChunkFields();
    for (String chunk : chunks) {
      byte[] bytes = chunk.getBytes(StandardCharsets.UTF_8);
      for (int round = 0; round < 5; round++) {
        int n = 200_000;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          ChunkParser.parseWithJackson(bytes, bytes.length, out);
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          if (!ChunkScanner.scan(bytes, bytes.length, out)) {
            throw new IllegalStateException("the scanner gave up on " + chunk);
          }
        }
        long t2 = System.nanoTime();
        System.out.printf(Locale.ROOT, "%s round %d: Jackson %.0f ns, scanner %.0f ns per chunk%n",
            chunk.contains("delta") ? "chat" : "completions", round,
            (t1 - t0) / (double) n, (t2 - t1) / (double) n);
      }
    }
  }
}
