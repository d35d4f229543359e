package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.ClassFigures;
import dev.gatlingllm.internal.metrics.MetricsCalculator;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassReportTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MS = 1_000_000;
  private static final double[] PERCENTILES = {50, 99};

  static RequestRecord ok(String cls, int prompt, int output, int... chunkMs) {
    int[] micros = new int[chunkMs.length];
    for (int i = 0; i < chunkMs.length; i++) {
      micros[i] = chunkMs[i] * 1_000;
    }
    int last = chunkMs[chunkMs.length - 1];
    return RequestRecord.builder("gen").startNanos(0).ttftNanos(chunkMs[0] * MS)
        .latencyNanos(last * MS).endNanos(last * MS).chunkMicros(micros).promptTokens(prompt)
        .outputTokens(output).httpStatus(200).success(true).requestClass(cls).build();
  }

  /**
   * long_prefill: one request, prompt 10, chunks at 100, 200, 300 ms (TTFT 100, TPOT 100,
   * E2EL 300, 3 tokens out). long_decode: prompt 5 with 8 chunks 200..900 ms (TTFT 200, 7 ITLs
   * of 100, E2EL 900), prompt 7 with chunks at 50 and 150 (TTFT 50, ITL 100, E2EL 150) and a
   * failure with prompt 6: 3 requests, 2 completed, input 5 + 6 + 7 = 18 (the failed prompt
   * was sent), output 8 + 2 = 10; TTFT mean and median 125, population std 75, p99 of (50,
   * 200) by linear interpolation 50 + 0.99 * 150 = 198.5; E2EL mean 525. The request without a
   * class is in neither.
   */
  static List<RequestRecord> records() {
    return List.of(
        ok("long_prefill", 10, 3, 100, 200, 300),
        ok("long_decode", 5, 8, 200, 300, 400, 500, 600, 700, 800, 900),
        RequestRecord.builder("gen").startNanos(0).promptTokens(6).httpStatus(500)
            .error("HTTP 500").requestClass("long_decode").build(),
        ok("long_decode", 7, 2, 50, 150),
        ok(null, 1000, 2, 5000, 6000));
  }

  static List<ClassFigures> classes() {
    List<RequestRecord> records = records();
    BenchmarkMetrics whole = MetricsCalculator.builder().percentiles(PERCENTILES).build()
        .compute(records, 10);
    return ClassFigures.of(RecordSource.of(records), whole, PERCENTILES);
  }

  /**
   * A class with one completed request, one failed and one cancelled on purpose: 3 requests,
   * 1 completed, 1 failed (not 2: the cancel is neither), as the whole run counts them.
   */
  @Test
  void aCancelledRequestIsNotAFailureOfItsClass() {
    List<RequestRecord> records = List.of(
        ok("chat", 5, 2, 50, 150),
        RequestRecord.builder("gen").startNanos(0).promptTokens(6).httpStatus(500)
            .error("HTTP 500").requestClass("chat").build(),
        RequestRecord.builder("gen").startNanos(0).ttftNanos(40 * MS).promptTokens(4)
            .httpStatus(200).cancelled(true).requestClass("chat").build());
    BenchmarkMetrics whole = MetricsCalculator.builder().percentiles(PERCENTILES).build()
        .compute(records, 10);
    ClassFigures chat = ClassFigures.of(RecordSource.of(records), whole, PERCENTILES).get(0);
    assertEquals(3, chat.requests());
    assertEquals(1, chat.completed());
    assertEquals(1, chat.cancelled());
    assertEquals(1, chat.failed());
    assertEquals(whole.failed(), chat.failed(), "the class agrees with the run");
  }

  @Test
  void requestClassMetricsHaveTheFiguresOfEachClassInVllmsKeys() throws Exception {
    JsonNode doc = JSON.readTree(JSON.writeValueAsString(ClassReport.json(classes())));
    assertEquals(List.of("long_decode", "long_prefill"), iterate(doc));

    JsonNode decode = doc.get("long_decode");
    assertEquals(3, decode.get("requests").asInt());
    assertEquals(2, decode.get("completed").asInt());
    assertEquals(1, decode.get("failed").asInt());
    assertEquals(18, decode.get("total_input_tokens").asLong());
    assertEquals(10, decode.get("total_output_tokens").asLong());
    assertEquals(6.0, decode.get("mean_input_tokens").asDouble(), 1e-9);
    assertEquals(5.0, decode.get("mean_output_tokens").asDouble(), 1e-9);
    assertEquals(125.0, decode.get("mean_ttft_ms").asDouble(), 1e-9);
    assertEquals(125.0, decode.get("median_ttft_ms").asDouble(), 1e-9);
    assertEquals(75.0, decode.get("std_ttft_ms").asDouble(), 1e-9);
    assertEquals(List.of("p50", "p99"), iterate(decode.get("ttft_percentiles_ms")));
    assertEquals(125.0, decode.get("ttft_percentiles_ms").get("p50").asDouble(), 1e-9);
    assertEquals(198.5, decode.get("ttft_percentiles_ms").get("p99").asDouble(), 1e-9);
    assertEquals(100.0, decode.get("mean_tpot_ms").asDouble(), 1e-9);
    assertEquals(100.0, decode.get("mean_itl_ms").asDouble(), 1e-9);
    assertEquals(100.0, decode.get("itl_percentiles_ms").get("p99").asDouble(), 1e-9);
    assertEquals(525.0, decode.get("mean_e2el_ms").asDouble(), 1e-9);
    assertEquals(900.0 - 0.01 * 750, decode.get("e2el_percentiles_ms").get("p99").asDouble(),
        1e-9);

    JsonNode prefill = doc.get("long_prefill");
    assertEquals(1, prefill.get("requests").asInt());
    assertEquals(0, prefill.get("failed").asInt());
    assertEquals(10, prefill.get("total_input_tokens").asLong());
    assertEquals(3, prefill.get("total_output_tokens").asLong());
    assertEquals(100.0, prefill.get("mean_ttft_ms").asDouble(), 1e-9);
    assertEquals(100.0, prefill.get("mean_tpot_ms").asDouble(), 1e-9);
    assertEquals(300.0, prefill.get("median_e2el_ms").asDouble(), 1e-9);
    assertEquals(0.0, prefill.get("std_e2el_ms").asDouble(), 1e-9);
  }

  @Test
  void theConsoleHasARowPerClassAndATablePerMetric() {
    String console = ClassReport.console(classes());
    assertTrue(console.startsWith("=============== Per-Class Results ================\n"),
        console);
    assertTrue(console.contains("\nClass          Requests  Failed    In tok    Out tok\n"
        + "long_decode    3         1         6.0       5.0\n"
        + "long_prefill   1         0         10.0      3.0\n"), console);
    assertTrue(console.contains("\nClass          Mean      Median    P50       P99\n"
        + "long_decode    125.00    125.00    125.00    198.50\n"), console);
    assertEquals("", ClassReport.console(List.of()), "no classes, no section");
  }

  @Test
  void aRunWithoutClassesHasNoRequestClassMetrics() {
    List<RequestRecord> plain = List.of(ok(null, 10, 2, 1, 2));
    BenchmarkMetrics whole = MetricsCalculator.builder().build().compute(plain, 1);
    assertEquals(List.of(), ClassFigures.of(RecordSource.of(plain), whole, PERCENTILES));
  }

  @Test
  void theClassTravelsWithTheRecordInTheLog() {
    RequestRecord r = ok("shared_prefix", 12, 2, 1, 2);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RecordCodec.encode(r, out);
    byte[] bytes = out.toByteArray();
    RequestRecord read = RecordCodec.decode(bytes, 0, bytes.length);
    assertEquals("shared_prefix", read.requestClass());
    assertEquals(r, read.toBuilder().chunkMicros(r.chunkMicros()).build());
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    RecordCodec.encode(r.toBuilder().requestClass(null).build(), plain);
    assertEquals(bytes.length - 1 - "shared_prefix".length(), plain.size(),
        "without a class a record keeps its former bytes");
    assertEquals(null, RecordCodec.decode(plain.toByteArray(), 0, plain.size()).requestClass());
  }

  private static List<String> iterate(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
