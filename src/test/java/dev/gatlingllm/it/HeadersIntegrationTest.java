package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** What the plugin really sends: headers, the bearer key and x-request-id, read off the wire. */
@Timeout(120)
class HeadersIntegrationTest {

  @TempDir
  Path results;

  /** The requests of one run, and everything logged meanwhile. */
  private record Run(List<Map<String, List<String>>> requests, String log) {}

  private Run run(Map<String, String> extra) {
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    root.addAppender(log);
    try (StubLlmServer server = new StubLlmServer()) {
      Map<String, String> properties = new HashMap<>(extra);
      properties.put(HeadersItSimulation.BASE_URL, server.baseUrl());
      GatlingRunner.Result result =
          GatlingRunner.run(HeadersItSimulation.class, results, properties);
      assertEquals(0, result.exitCode(), "every request succeeds");
      List<Map<String, List<String>>> requests = server.requests().stream()
          .filter(r -> r.get(":path").equals(List.of("/v1/completions"))).toList();
      StringBuilder text = new StringBuilder();
      log.list.forEach(e -> text.append(e.getFormattedMessage()).append('\n'));
      return new Run(requests, text.toString());
    } finally {
      root.detachAppender(log);
    }
  }

  /** The run's requests, without the warm-up's (which go first, as {@code warmup-<n>}). */
  private static List<Map<String, List<String>>> measured(Run run) {
    return run.requests().stream()
        .filter(h -> !h.get("x-request-id").get(0).startsWith("warmup-")).toList();
  }

  @Test
  void userHeadersReplaceTheClientsOwnAndTheKeyGoesOutAsBearer() {
    Run run = run(Map.of());
    assertEquals(3, measured(run).size());
    assertTrue(run.requests().size() > 3, "warm-up requests went first");
    // every request, warm-up included, carries the same headers
    for (Map<String, List<String>> headers : run.requests()) {
      assertEquals(List.of("my-agent/1.0"), headers.get("user-agent"), "set, not added");
      assertEquals(List.of("text/event-stream"), headers.get("accept"), "names ignore case");
      assertEquals(List.of("llm"), headers.get("x-team"), "the last value given wins");
      assertEquals(List.of("Bearer " + HeadersItSimulation.API_KEY), headers.get("authorization"));
      assertEquals(List.of("application/json"), headers.get("content-type"));
    }
    assertEquals(List.of("hdr-0", "hdr-1", "hdr-2"), measured(run).stream()
        .map(h -> h.get("x-request-id").get(0)).sorted().toList());
    assertFalse(run.log().contains(HeadersItSimulation.API_KEY), "the key is never logged");
  }

  @Test
  void theUsersOwnAuthorizationHeaderWinsOverTheEnvironmentsKeyWithAWarning() {
    Run run = run(Map.of(HeadersItSimulation.USER_AUTHORIZATION, "Basic dXNlcjpwdw=="));
    assertEquals(3, measured(run).size());
    for (Map<String, List<String>> headers : run.requests()) {
      assertEquals(List.of("Basic dXNlcjpwdw=="), headers.get("authorization"));
    }
    assertTrue(run.log().contains("header(\"Authorization\") wins over the API key in "
        + "OPENAI_API_KEY"), run.log());
    assertFalse(run.log().contains(HeadersItSimulation.API_KEY), "the key is never logged");
  }
}
