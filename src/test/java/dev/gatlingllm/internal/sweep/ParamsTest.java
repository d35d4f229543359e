package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParamsTest {

  @Test
  void aListOfDictsIsTheSweep() {
    List<Map<String, Object>> p = Params.parse("[{\"max_num_seqs\": 32, \"x\": 1.5}, {}]");
    assertEquals(2, p.size());
    assertEquals(32, p.get(0).get("max_num_seqs"));
    assertEquals(1.5, p.get(0).get("x"));
    assertEquals(Map.of(), p.get(1));
  }

  @Test
  void aDictOfNamedDictsKeepsTheNames() {
    List<Map<String, Object>> p = Params.parse("{\"small\": {\"max_tokens\": 100}, "
        + "\"big\": {\"max_tokens\": 200}}");
    assertEquals("small", p.get(0).get(Params.NAME_KEY));
    assertEquals(200, p.get(1).get("max_tokens"));
  }

  @Test
  void anythingElseIsRefusedWithVllmsMessage() {
    assertEquals("The parameter sweep should be a list of dictionaries, but found type: "
        + "<class 'int'>", assertThrows(IllegalArgumentException.class,
            () -> Params.parse("3")).getMessage());
    assertEquals("The parameter sweep should be a list of dictionaries, but found item type: "
        + "<class 'list'>", assertThrows(IllegalArgumentException.class,
            () -> Params.parse("[{}, [1]]")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Params.parse("[{\"_benchmark_name\": \"a\"}, {\"_benchmark_name\": \"a\"}]"))
        .getMessage().startsWith("Duplicate _benchmark_name values found: [a]"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Params.parse("[{"))
        .getMessage().startsWith("not JSON"));
  }

  @Test
  void serverFlagsAreReplacedAppendedOrNegatedAsVllmDoes() {
    Map<String, Object> comb = new LinkedHashMap<>();
    comb.put("max_num_seqs", 64);
    comb.put("enable_prefix_caching", false);
    comb.put("enforce-eager", true);
    comb.put("max_model_len", 2048);
    assertEquals(List.of("vllm", "serve", "m", "--max-num-seqs", "64",
            "--no-enable-prefix-caching", "--max_model_len=2048", "--enforce-eager"),
        Params.overrideServe(List.of("vllm", "serve", "m", "--max-num-seqs", "32",
            "--enable-prefix-caching", "--max_model_len=1024"), comb));
  }

  @Test
  void benchFlagsSwitchOffAndResetToo() {
    Map<String, Object> comb = new LinkedHashMap<>();
    comb.put("request_rate", 20);
    comb.put("ignore_eos", false);
    comb.put("max_concurrency", null);
    comb.put("disable_tqdm", true);
    comb.put("random-output-len", 9);
    comb.put(Params.NAME_KEY, "ignored");
    assertEquals(List.of("--model", "m", "--request-rate", "20", "--disable-tqdm",
            "--random-output-len", "9"),
        Params.overrideBench(List.of("--model", "m", "--request-rate", "inf", "--ignore-eos",
            "--max-concurrency", "4"), comb));
  }

  @Test
  void linkedVariablesKeepOnlyMatchingCombinations() {
    List<Map.Entry<String, String>> links =
        Params.parseLinkVars("max_num_seqs=max_concurrency, max_model_len=random_input_len");
    assertEquals(2, links.size());
    Map<String, Object> serve = Map.of("max_num_seqs", 32, "max_model_len", 1024);
    assertTrue(Params.linked(serve, Map.of("max_concurrency", 32, "random_input_len", 1024),
        links));
    assertFalse(Params.linked(serve, Map.of("max_concurrency", 64, "random_input_len", 1024),
        links));
    assertFalse(Params.linked(serve, Map.of("max_concurrency", 32), links));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Params.parseLinkVars("a=b,c")).getMessage().contains("'c' is not serve_key"));
  }

  @Test
  void folderNamesFollowVllmAndCannotEscape() {
    Map<String, Object> serve = new LinkedHashMap<>();
    serve.put("model", "org/../m");
    serve.put("tp", 2);
    assertEquals("SERVE-model=org____m-tp=2-BENCH-request_rate=1.5-ignore_eos=True",
        Params.folderName(serve, new LinkedHashMap<>(Map.of("request_rate", 1.5)) {
          {
            put("ignore_eos", true);
          }
        }));
    assertEquals("SERVE-BENCH", Params.folderName(Map.of(), Map.of()));
  }
}
