package dev.gatlingllm.cli;

import dev.gatlingllm.action.RequestPreview;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * {@code --profile}: asks the server to start its torch profiler before the measured run and
 * to stop it after, by posting the test request to {@code /start_profile} and
 * {@code /stop_profile} as vLLM does. The server answers these with plain JSON, not a stream,
 * so they go through the JDK's client rather than the benchmark's streaming one. A server
 * started without a profiler directory answers 404: that is reported, and the run goes on.
 */
final class Profiler {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private final String baseUrl;
  private final Map<String, String> headers;
  private final byte[] body;
  private final String contentType;
  private final PrintStream console;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
      .version(HttpClient.Version.HTTP_1_1).build();

  /** @param headers the run's headers, authorization included (never printed) */
  Profiler(String baseUrl, Map<String, String> headers, RequestPreview.Rendered test,
      PrintStream console) {
    this.baseUrl = baseUrl;
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
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(TIMEOUT).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    try {
      HttpResponse<Void> response =
          http.send(request.build(), HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() / 100 == 2) {
        return true;
      }
      console.println("Profiler call " + path + " failed: HTTP " + response.statusCode()
          + " (was the server started with VLLM_TORCH_PROFILER_DIR?)");
    } catch (IOException e) {
      console.println("Profiler call " + path + " failed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      console.println("Profiler call " + path + " interrupted");
    }
    return false;
  }
}
