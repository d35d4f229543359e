package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class DatasetStatsChartTest {

  @TempDir
  Path dir;

  @Test
  void oneBarPerHistogramBinInAWellFormedSvg() throws Exception {
    List<DatasetStats.Request> requests = new ArrayList<>();
    // inputs 10, 20, 30, 40: 16 bars of 2 tokens; outputs 5, 5, 5, 100: 24 bars of 4, the
    // last from 5 + 23 * 4 = 97 to 100
    int[] in = {10, 20, 30, 40};
    int[] out = {5, 5, 5, 100};
    for (int i = 0; i < 4; i++) {
      requests.add(new DatasetStats.Request("p", in[i], out[i]));
    }
    Path file = DatasetStatsChart.write(DatasetStats.of(requests, null), "a <b> & c",
        dir.resolve("sub"));
    assertEquals(dir.resolve("sub").resolve("dataset-stats.svg"), file);
    Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(
        new ByteArrayInputStream(Files.readAllBytes(file)));
    NodeList rects = svg.getElementsByTagName("rect");
    // the white background, then the bars
    assertEquals(1 + 16 + 24, rects.getLength());
    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertTrue(text.contains("Dataset statistics: a &lt;b&gt; &amp; c"), text);
    assertTrue(text.contains("<title>97–100 tokens: 1 requests</title>"), text);
    assertTrue(text.contains("min 10 · mean 25.0 · p50 25.0 · p99 39.7 · max 40"), text);
  }
}
