package dev.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.MetricFixtures;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.internal.report.RecordLogTest;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.internal.report.RunSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reporting a run again from its record log, finished or cut. */
class RecoverTest {

  @TempDir
  Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  private PrintStream console() {
    return new PrintStream(console, true, StandardCharsets.UTF_8);
  }

  /** What the after-run path does: report from the store that the log mirrors. */
  private ReportOutcome runAndReport(Path runFolder, List<RequestRecord> records) throws Exception {
    RunSettings settings = RecordLogTest.settings();
    try (RecordStore store = new RecordStore(0, dir.resolve("spill"))) {
      RecordLog log = RecordLog.create(runFolder, () -> settings);
      store.mirrorTo(log::append);
      records.forEach(store::add);
      log.finish(settings);
      return RunReporter.report(settings.withOptions(settings.options().toBuilder()
          .printSummary(false).build()), store, runFolder, MetricFixtures.WORDS);
    }
  }

  @Test
  void aFinishedLogGivesTheVeryJsonTheRunWrote() throws Exception {
    Path runFolder = Files.createDirectories(dir.resolve("run"));
    ReportOutcome normal = runAndReport(runFolder, MetricFixtures.records("mixed"));
    assertTrue(normal.ok(), normal.error());

    Recover.Recovered recovered = Recover.recover(runFolder.resolve(RecordLog.FILE_NAME),
        dir.resolve("recovered.json"), MetricFixtures.WORDS, console());

    assertTrue(recovered.outcome().ok(), recovered.outcome().error());
    assertFalse(recovered.partial());
    assertEquals(Files.readString(normal.resultFile()),
        Files.readString(recovered.outcome().resultFile()));
    assertEquals(normal.summary(), console.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aCutLogGivesAPartialResultThatSaysSo() throws Exception {
    Path runFolder = Files.createDirectories(dir.resolve("run"));
    List<RequestRecord> records = MetricFixtures.records("mixed");
    runAndReport(runFolder, records);
    Path log = runFolder.resolve(RecordLog.FILE_NAME);
    byte[] whole = Files.readAllBytes(log);
    // through the end marker and into the last record, as a kill -9 mid-write leaves it
    int end = whole.length;
    while (RecordLogReader.read(Arrays.copyOf(whole, end), "log").records().size()
        == records.size()) {
      end--;
    }
    Path cut = Files.write(dir.resolve("cut.bin"), Arrays.copyOf(whole, end));
    int kept = RecordLogReader.read(cut).records().size();
    assertTrue(kept > 0 && kept < records.size(), "kept " + kept);

    Recover.Recovered recovered = Recover.recover(cut, null, MetricFixtures.WORDS, console());

    assertTrue(recovered.partial());
    assertEquals(kept, recovered.records());
    assertTrue(recovered.droppedBytes() > 0);
    assertEquals(dir, recovered.outcome().resultFile().getParent(), "beside the log");
    assertEquals("r.json", recovered.outcome().resultFile().getFileName().toString(),
        "the run's own result file name");
    JsonNode doc = new ObjectMapper().readTree(recovered.outcome().resultFile().toFile());
    assertTrue(doc.get(Recover.PARTIAL_KEY).asBoolean());
    assertEquals(kept, doc.get(Recover.RECOVERED_RECORDS_KEY).asInt());
    assertEquals(kept, doc.get("completed").asInt() + doc.get("failed").asInt());
    String text = console.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("gatling-llm: PARTIAL result"), text);
    assertTrue(text.contains("Serving Benchmark Result"), text);
    assertTrue(text.contains("PARTIAL: " + kept + " requests recovered"), text);
  }

  @Test
  void anExistingResultIsNeverOverwritten() throws Exception {
    Path runFolder = Files.createDirectories(dir.resolve("run"));
    runAndReport(runFolder, MetricFixtures.records("mixed"));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Recover.recover(
        runFolder.resolve(RecordLog.FILE_NAME), null, MetricFixtures.WORDS, console()));
    assertTrue(e.getMessage().contains("r.json exists already"), e.getMessage());
  }

  @Test
  void aRunFolderIsRecoveredFromTheRecordLogInIt() throws Exception {
    Path runFolder = Files.createDirectories(dir.resolve("run"));
    ReportOutcome normal = runAndReport(runFolder, MetricFixtures.records("mixed"));

    Recover.Recovered recovered = Recover.recover(runFolder, dir.resolve("recovered.json"),
        MetricFixtures.WORDS, console());

    assertTrue(recovered.outcome().ok(), recovered.outcome().error());
    assertEquals(MetricFixtures.records("mixed").size(), recovered.records());
    assertEquals(Files.readString(normal.resultFile()),
        Files.readString(recovered.outcome().resultFile()));
  }

  @Test
  void aFolderWithoutARecordLogIsRefusedByName() throws Exception {
    Path gatlingOnly = Files.createDirectories(dir.resolve("sim-20261126120000123"));
    Files.writeString(gatlingOnly.resolve("simulation.log"), "gatling's");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Recover.recover(gatlingOnly, null, MetricFixtures.WORDS, console()));

    assertTrue(e.getMessage().startsWith("no record log (llm-records.bin) in " + gatlingOnly
        + ": "), e.getMessage());
  }

  @Test
  void aFolderWithOneNumberedLogGivesItAndWithSeveralAsksWhich() throws Exception {
    Path runFolder = Files.createDirectories(dir.resolve("run"));
    runAndReport(runFolder, MetricFixtures.records("mixed"));
    Path log = runFolder.resolve(RecordLog.FILE_NAME);
    Path second = Files.move(log, runFolder.resolve("llm-records-2.bin"));
    assertEquals(second, Recover.recordLogOf(runFolder));

    Files.copy(second, runFolder.resolve("llm-records-3.bin"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Recover.recordLogOf(runFolder));
    assertEquals("several record logs in " + runFolder
        + " [llm-records-2.bin, llm-records-3.bin]: give the one to recover", e.getMessage());
    assertEquals(log, Recover.recordLogOf(log), "a file is taken as given");
  }
}
