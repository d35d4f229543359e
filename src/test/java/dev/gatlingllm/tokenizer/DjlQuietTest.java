package dev.gatlingllm.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class DjlQuietTest {

  private final Logger probe = (Logger) LoggerFactory.getLogger(DjlQuiet.CUDA_LOGGER);
  private final Level configured = probe.getLevel();

  @AfterEach
  void restore() {
    probe.setLevel(configured);
  }

  @Test
  void theGpuProbesWarningIsSilencedWhenTheLoggingFileSaysNothingOfIt() {
    probe.setLevel(null);
    DjlQuiet.apply();
    assertEquals(Level.ERROR, probe.getLevel());
  }

  @Test
  void aLevelTheProjectGaveTheProbeIsKept() {
    probe.setLevel(Level.DEBUG);
    DjlQuiet.apply();
    assertEquals(Level.DEBUG, probe.getLevel());
  }
}
