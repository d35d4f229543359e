package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTest {

  @TempDir
  Path dir;

  @Test
  void pandasLayoutIndexColumnUnionOfKeysPythonValues() throws Exception {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("request_rate", "inf");
    a.put("request_throughput", 10.0);
    a.put("label", "a, \"b\"");
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("request_throughput", 2.5);
    b.put("max_concurrency", 4);
    b.put("ignore_eos", true);
    b.put("label", null);
    Path file = dir.resolve("summary.csv");
    Csv.write(file, List.of(a, b));
    assertEquals(",request_rate,request_throughput,label,max_concurrency,ignore_eos\n"
        + "0,inf,10.0,\"a, \"\"b\"\"\",,\n"
        + "1,,2.5,,4,True\n", Files.readString(file));
  }
}
