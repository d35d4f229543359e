package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFilesTest {

  @TempDir Path dir;

  @Test
  void linesAreSplitLikePythonReadlinesWhateverTheLineEndings() throws IOException {
    Path file = dir.resolve("poem.txt");
    Files.writeString(file, "one\r\ntwo\rthree\nfour");
    assertEquals(List.of("one\n", "two\n", "three\n", "four"),
        DataFiles.linesWithTerminators(file, "Sonnet"));
  }
}
