package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProgressLineTest {

  @Test
  void lineShowsDoneOutOfTotalRateAndTimeLeftAtThatRate() {
    assertEquals("progress: 120/500 requests (24%) | 20.0 req/s | elapsed 0:06 | ETA 0:19",
        ProgressLine.line(120, 500, 6.0));
    assertEquals("progress: 0/10 requests (0%) | 0.0 req/s | elapsed 0:01 | ETA ?",
        ProgressLine.line(0, 10, 1.0));
    assertEquals("progress: 10/10 requests (100%) | 2.0 req/s | elapsed 0:05 | ETA 0:00",
        ProgressLine.line(10, 10, 5.0));
    assertEquals("1:01:01", ProgressLine.clock(3661));
  }

  @Test
  void printsOnlyWhenTheCountMovedAndOnceMoreWhenClosed() throws InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AtomicInteger done = new AtomicInteger();
    ProgressLine progress = new ProgressLine(4, done::get,
        new PrintStream(out, true, StandardCharsets.UTF_8), 20);
    Thread.sleep(200);
    done.set(3);
    Thread.sleep(200);
    done.set(4);
    progress.close();
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(3, lines.length, String.join("\n", lines));
    assertTrue(lines[0].startsWith("progress: 0/4 requests (0%)"), lines[0]);
    assertTrue(lines[1].startsWith("progress: 3/4 requests (75%)"), lines[1]);
    assertTrue(lines[2].startsWith("progress: 4/4 requests (100%)"), lines[2]);
  }
}
