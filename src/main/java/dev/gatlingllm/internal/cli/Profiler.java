package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code --profile}: asks the server to start its torch profiler before the measured run and
 * to stop it after, by posting the test request to {@code /start_profile} and
 * {@code /stop_profile} as vLLM does. The server answers these with plain JSON, not a stream,
 * so they go through {@link AuxHttp} rather than the benchmark's streaming client. A server
 * started without a profiler directory answers 404: that is reported, and the run goes on.
 *
 * <p>With vllm-bench's {@code --profile-batch-threshold N} the profiler waits instead: the
 * server's {@code /metrics} is read every {@value #POLL_MILLIS} ms until its
 * {@code vllm:num_requests_running} reaches N, then the profiler runs for
 * {@code --profile-duration} seconds (or until the run ends, if sooner), so that the trace
 * shows the server at that batch size rather than the whole run with its ramp and tail.
 */
public final class Profiler {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  /** vllm-bench's poll interval of the batch threshold. */
  static final long POLL_MILLIS = 500;
  private static final String RUNNING = "vllm:num_requests_running";

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
  public Profiler(String baseUrl, Map<String, String> headers, RequestPreview.Rendered test,
      PrintStream console, boolean insecureTls) {
    this.baseUrl = baseUrl;
    this.insecureTls = insecureTls;
    this.headers = headers;
    this.body = test.body();
    this.contentType = test.contentType();
    this.console = console;
  }

  /** The profiler started once the server runs this many requests, for a time. */
  private Thread waiting;
  private final CountDownLatch runEnded = new CountDownLatch(1);

  public void start() {
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

  /**
   * {@code --profile-batch-threshold}: from now on, waits in the background until the server
   * runs {@code threshold} requests, then profiles for {@code seconds}; {@link #finish} ends
   * the wait, or the capture early, when the run ends first.
   */
  public void startAtBatchSize(int threshold, double seconds) {
    console.println("Waiting for batch size >= " + threshold + " before starting profiler "
        + "(will capture " + BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString()
        + "s)...");
    waiting = new Thread(() -> profileAtBatchSize(threshold, seconds), "profile-batch-threshold");
    waiting.setDaemon(true);
    waiting.start();
  }

  private void profileAtBatchSize(int threshold, double seconds) {
    try {
      while (true) {
        int running = running();
        if (running >= threshold) {
          console.println("Batch size " + running + " >= " + threshold
              + ", starting profiler...");
          break;
        }
        if (runEnded.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
          console.println("NOTE: Benchmark finished before batch threshold " + threshold
              + " was reached; profiling skipped.");
          return;
        }
      }
      if (!post("/start_profile")) {
        return;
      }
      console.println("Profiler started");
      if (runEnded.await(Math.round(seconds * 1000), TimeUnit.MILLISECONDS)) {
        console.println("Benchmark finished, stopping profiler early...");
      }
      if (post("/stop_profile")) {
        console.println("Profiler stopped after capturing");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The run ended: with a batch threshold, ends the wait or the capture and waits until the
   * profiler was stopped; otherwise stops it.
   */
  public void finish() throws InterruptedException {
    if (waiting == null) {
      stop();
      return;
    }
    runEnded.countDown();
    waiting.join(TIMEOUT.toMillis());
  }

  /** The server's {@code vllm:num_requests_running}, or -1 when it cannot be read. */
  private int running() {
    try {
      AuxHttp.Response response = AuxHttp.get(URI.create(baseUrl + "/metrics"))
          .headers(headers).connectTimeout(CONNECT_TIMEOUT).timeout(TIMEOUT)
          .followRedirects(false).insecureTls(insecureTls).send();
      return response.ok() ? running(response.text()) : -1;
    } catch (AuxHttpException e) {
      return -1;
    }
  }

  /**
   * The value of the first {@code vllm:num_requests_running} sample of a Prometheus text
   * (one per model; vllm-bench reads the first too), or -1 when there is none.
   */
  static int running(String metrics) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(RUNNING) && (line.length() == RUNNING.length()
          || line.charAt(RUNNING.length()) == '{' || line.charAt(RUNNING.length()) == ' ')) {
        String value = line.substring(line.lastIndexOf(' ') + 1).strip();
        try {
          return (int) Double.parseDouble(value);
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
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
