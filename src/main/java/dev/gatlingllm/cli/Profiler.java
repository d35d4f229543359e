package dev.gatlingllm.cli;

import dev.gatlingllm.action.RequestPreview;
import dev.gatlingllm.http.AuxHttp;
import dev.gatlingllm.http.AuxHttpException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * {@code --profile}: asks the server to start its torch profiler before the measured run and
 * to stop it after, by posting the test request to {@code /start_profile} and
 * {@code /stop_profile} as vLLM does. The server answers these with plain JSON, not a stream,
 * so they go through {@link AuxHttp} rather than the benchmark's streaming client. A server
 * started without a profiler directory answers 404: that is reported, and the run goes on.
 */
final class Profiler {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private final String baseUrl;
  private final Map<String, String> headers;
  private final byte[] body;
  private final String contentType;
  private final PrintStream console;
  private final boolean insecureTls;

  /**
   * @param headers     the run's headers, authorization included (never printed)
   * @param insecureTls {@code --insecure}: no certificate check, as for the run's requests
   */
  Profiler(String baseUrl, Map<String, String> headers, RequestPreview.Rendered test,
      PrintStream console, boolean insecureTls) {
    this.baseUrl = baseUrl;
    this.insecureTls = insecureTls;
    this.headers = headers;
    this.body = test.body();
    this.contentType = test.contentType();
    this.console = console;
  }

  void start() {
    console.println("Starting profiler...");
    if (post("/start_profile")) {
      console.println("Profiler started");
    }
  }

  void stop() {
    console.println("Stopping profiler...");
    if (post("/stop_profile")) {
      console.println("Profiler stopped");
    }
  }

  private boolean post(String path) {
    try {
      AuxHttp.Response response = AuxHttp.post(URI.create(baseUrl + path), body, contentType)
          .headers(headers).header("Content-Type", contentType)
          .connectTimeout(CONNECT_TIMEOUT).timeout(TIMEOUT).followRedirects(false)
          .insecureTls(insecureTls).send();
      if (response.ok()) {
        return true;
      }
      console.println("Profiler call " + path + " failed: HTTP " + response.status()
          + " (was the server started with VLLM_TORCH_PROFILER_DIR?)");
    } catch (AuxHttpException e) {
      console.println("Profiler call failed: " + e.getMessage());
    }
    return false;
  }
}
