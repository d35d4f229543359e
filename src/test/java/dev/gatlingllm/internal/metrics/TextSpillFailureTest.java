package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Generated texts survive a spill file that cannot be written, and the run says so. */
class TextSpillFailureTest {

  @TempDir
  Path dir;

  private static RequestRecord answer(int i, String text) {
    return RequestRecord.builder("r" + i).startNanos(0).ttftNanos(1_000).latencyNanos(2_000)
        .endNanos(2_000).chunkMicros(new int[] {1, 2}).promptTokens(3).httpStatus(200).success(true)
        .generatedText(text).build();
  }

  @Test
  void textsAreKeptInMemoryWhenTheSpillFileCannotBeWritten() throws IOException {
    // A regular file where the spill folder should be: the spill file can never be created.
    Path notAFolder = Files.writeString(dir.resolve("occupied"), "x");
    Logger logger = (Logger) LoggerFactory.getLogger(TextSpill.class);
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    try (RecordStore store = new RecordStore(0, notAFolder)) {
      // more than one spill buffer, so texts are appended after the first failed write too
      String big = "y".repeat(TextSpill.BUFFER_BYTES);
      List<String> texts = List.of("a b c", big, "d e f g", "h");
      for (int i = 0; i < texts.size(); i++) {
        store.add(answer(i, texts.get(i)));
      }
      RecordStore.Snapshot snapshot = store.snapshot();
      store.add(answer(9, "after the snapshot"));
      RecordStore.Snapshot later = store.snapshot();

      for (int i = 0; i < texts.size(); i++) {
        assertEquals(texts.get(i), snapshot.text(i), "text " + i);
      }
      assertEquals("after the snapshot", later.text(texts.size()));
    } finally {
      logger.detachAppender(log);
    }
    List<ILoggingEvent> errors = log.list.stream()
        .filter(e -> e.getLevel() == Level.ERROR).toList();
    assertEquals(1, errors.size(), "said once, loudly: " + log.list);
    assertTrue(errors.get(0).getFormattedMessage().contains("kept in memory"),
        errors.get(0).getFormattedMessage());
  }
}
