package dev.gatlingllm.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.internal.report.RecordCodec;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunSettings;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * The record log's format choice, measured: bytes per record and writer-thread time per
 * record for the binary frames against one JSON line per record (Jackson), and the time
 * {@link RecordLog#append} costs the event loop. Records of {@code tokens} one-token chunks
 * 10 ms apart with jitter, 4 characters of text per token.
 *
 * <pre>./mvnw -B -q test-compile exec:java -Dexec.mainClass=dev.gatlingllm.bench.RecordLogFormatBench \
 *     -Dexec.args="20000 128"</pre>
 */
public final class RecordLogFormatBench {

  private RecordLogFormatBench() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 128;
    RequestRecord[] records = records(n, tokens);
    ObjectMapper json = new ObjectMapper();
    for (int round = 0; round < 3; round++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
      long t0 = System.nanoTime();
      long binaryBytes = 0;
      for (RequestRecord r : records) {
        out.reset();
        RecordCodec.encode(r, out);
        binaryBytes += out.size() + 9; // frame: type, length, CRC
      }
      long binaryNanos = System.nanoTime() - t0;
      t0 = System.nanoTime();
      long jsonBytes = 0;
      for (RequestRecord r : records) {
        jsonBytes += json.writeValueAsBytes(asMap(r)).length + 1;
      }
      long jsonNanos = System.nanoTime() - t0;
      System.out.printf("round %d: binary %.0f B/record (%.2f B/token) %.1f us/record | "
              + "JSON line %.0f B/record (%.2f B/token) %.1f us/record%n", round,
          (double) binaryBytes / n, (double) binaryBytes / n / tokens, binaryNanos / 1e3 / n,
          (double) jsonBytes / n, (double) jsonBytes / n / tokens, jsonNanos / 1e3 / n);
    }
    Path dir = Files.createTempDirectory("record-log-bench");
    RunSettings settings = RunSettings.of(RunInfo.builder("m").build(), ResultOptions.defaults(), -1);
    for (int round = 0; round < 3; round++) {
      RecordLog log = RecordLog.create(dir.resolve("r" + round), () -> settings);
      long t0 = System.nanoTime();
      for (RequestRecord r : records) {
        log.append(r);
      }
      long appendNanos = System.nanoTime() - t0;
      long t1 = System.nanoTime();
      log.finish(settings);
      long finishNanos = System.nanoTime() - t1;
      System.out.printf("round %d: append %.0f ns/record on the caller; file %.1f MiB, "
              + "finish (drain + fsync) %.0f ms%n", round, appendNanos / (double) n,
          Files.size(log.file()) / 1048576.0, finishNanos / 1e6);
    }
  }

  private static Map<String, Object> asMap(RequestRecord r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", r.name());
    m.put("scheduled", r.scheduledNanos());
    m.put("start", r.startNanos());
    m.put("ttft", r.ttftNanos());
    m.put("latency", r.latencyNanos());
    m.put("end", r.endNanos());
    m.put("chunks", r.chunkMicros());
    m.put("prompt", r.promptTokens());
    m.put("usage_prompt", r.usagePromptTokens());
    m.put("output", r.outputTokens());
    m.put("status", r.httpStatus());
    m.put("success", r.success());
    m.put("error", r.error());
    m.put("text", r.generatedText());
    m.put("id", r.requestId());
    m.put("ttfc", r.ttfcNanos());
    m.put("reasoning", r.reasoningChunks());
    return m;
  }

  private static RequestRecord[] records(int n, int tokens) {
    Random random = new Random(1);
    RequestRecord[] out = new RequestRecord[n];
    long start = 5_000_000_000_000L;
    for (int i = 0; i < n; i++) {
      int[] chunks = new int[tokens];
      int t = 50_000 + random.nextInt(5_000);
      for (int c = 0; c < tokens; c++) {
        chunks[c] = t;
        t += 10_000 + random.nextInt(400) - 200;
      }
      long s = start + i * 1_000_000L;
      out[i] = RequestRecord.builder("gen").startNanos(s).ttftNanos(chunks[0] * 1000L)
          .latencyNanos(chunks[tokens - 1] * 1000L)
          .endNanos(s + chunks[tokens - 1] * 1000L + 300_000).chunkMicros(chunks).promptTokens(64)
          .usagePromptTokens(64).outputTokens(tokens).httpStatus(200).success(true)
          .generatedText("abcd".repeat(tokens)).requestId("benchmark-serving" + i).build();
    }
    return out;
  }
}
