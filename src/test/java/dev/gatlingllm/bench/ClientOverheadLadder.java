package dev.gatlingllm.bench;

import dev.gatlingllm.metrics.RequestRecord;
import io.gatling.app.Gatling$;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How much the load generator adds to the timings it reports, at increasing load. For each
 * rung of a ladder of Poisson request rates it runs a real Gatling simulation in-process
 * ({@link LadderRungSimulation}: arrival pacing, streamed completions, the plugin's client)
 * against the embedded simulator running in a separate JVM, so the two do not share a heap,
 * a garbage collector or JIT threads. The simulator's delays are exact (no jitter, no
 * prefill cost, no queue), so every microsecond the client measures beyond the configured
 * TTFT and ITL is overhead: the client's send and read paths, the loopback network and the
 * simulator's own timer lateness, which is shown beside it from the simulator's /metrics.
 *
 * <p>Per rung: the send rate achieved, the completion rate, mean and peak concurrency, the
 * TTFT and ITL errors (measured minus configured; p50 / p99 / max), how late each request
 * was sent against its scheduled arrival, the simulator's mean timer lateness, how late a
 * plain thread wakes from a 1 ms park in the client JVM at the same time (the machine's own
 * floor), the CPU used by each process, and GC pause time on each side. A short rung at
 * 50 req/s runs first to warm both JVMs up and is not reported.
 *
 * <p>Run: {@code ./mvnw -B -q test-compile exec:java
 * -Dexec.mainClass=dev.gatlingllm.bench.ClientOverheadLadder}. Under exec:java the class
 * starts itself again in a JVM of its own with the options gatling:test forks with, and the
 * numbers come from that JVM. System properties: {@code ladder.rates} (default
 * {@code 10,25,50,100,200,400,800} req/s), {@code ladder.seconds} (scheduled length of a
 * rung, default 10), {@code ladder.maxPrompts} (cap per rung, 8000), {@code ladder.ttftMs}
 * (50), {@code ladder.itlMs} (10), {@code ladder.outputTokens} (64), {@code ladder.simThreads}
 * (simulator event loops, 2), {@code ladder.dump} (a path prefix: writes one CSV line per
 * request for each rung). Percentiles interpolate linearly between closest ranks, as numpy
 * and vLLM do.
 */
public final class ClientOverheadLadder {

  private static final List<Double> RATES = Arrays.stream(
          System.getProperty("ladder.rates", "10,25,50,100,200,400,800").split(","))
      .map(String::trim).map(Double::parseDouble).collect(Collectors.toList());
  private static final double SECONDS = Double.parseDouble(System.getProperty("ladder.seconds", "10"));
  private static final int MAX_PROMPTS = Integer.getInteger("ladder.maxPrompts", 8000);
  private static final long TTFT_MS = Long.getLong("ladder.ttftMs", 50);
  private static final long ITL_MS = Long.getLong("ladder.itlMs", 10);
  private static final int OUTPUT_TOKENS = Integer.getInteger("ladder.outputTokens", 64);
  private static final int SIM_THREADS = Integer.getInteger("ladder.simThreads", 2);
  private static final Path RESULTS = Path.of("target", "ladder");
  private static final String DUMP = System.getProperty("ladder.dump");
  private static final Path SIM_GC_LOG = RESULTS.resolve("simulator-gc.log");
  private static final Pattern GC_PAUSE = Pattern.compile("Pause .* (\\d+(\\.\\d+)?)ms$");
  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
  /** Clock ticks per second of /proc/<pid>/stat CPU times (USER_HZ, 100 on Linux). */
  private static final double CLOCK_TICKS = 100.0;

  private ClientOverheadLadder() {}

  public static void main(String[] args) throws Exception {
    if (!Object.class.getModule().isOpen("java.lang", ClientOverheadLadder.class.getModule())) {
      System.exit(relaunch());
    }
    Files.createDirectories(RESULTS);
    System.out.printf(Locale.ROOT, "cores=%d, java %s, simulator: ttft=%d ms, itl=%d ms, %d output tokens,"
            + " jitter 0, %d event loops, in a JVM of its own%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        TTFT_MS, ITL_MS, OUTPUT_TOKENS, SIM_THREADS);
    System.out.println("load average at start: " + loadAverage());
    Process sim = startSimulator();
    List<String> rows = new ArrayList<>();
    try {
      String baseUrl = awaitBaseUrl(sim);
      System.out.println("simulator pid " + sim.pid() + " at " + baseUrl);
      rung(baseUrl, sim, 50, 200); // JIT warm-up of both JVMs, not reported
      for (double rate : RATES) {
        int prompts = (int) Math.min(MAX_PROMPTS, Math.max(20, Math.round(rate * SECONDS)));
        rows.add(rung(baseUrl, sim, rate, prompts).row());
      }
    } finally {
      sim.destroy();
      if (!sim.waitFor(5, TimeUnit.SECONDS)) {
        sim.destroyForcibly();
      }
    }
    System.out.println();
    System.out.println("Errors are measured minus configured, in ms; send late = actual send"
        + " minus scheduled arrival; sim late = simulator timer lateness, mean over the rung;"
        + " CPU in % of one core.");
    System.out.println(Rung.header());
    rows.forEach(System.out::println);
    System.out.println("load average at end: " + loadAverage());
    // Gatling leaves a non-daemon scheduler thread behind after an in-process run; the
    // forked JVM gatling:test uses exits explicitly too.
    System.exit(0);
  }

  private static Rung rung(String baseUrl, Process sim, double rate, int prompts) throws Exception {
    double[] lateBefore = timerLateness(baseUrl);
    long simCpuBefore = processCpuTicks(sim.pid());
    long cliCpuBefore = processCpuTicks(ProcessHandle.current().pid());
    long gcBefore = gcMillis();
    double simGcBefore = simulatorGcMillis();
    LadderRungSimulation.reset();
    ParkProbe probe = ParkProbe.start();
    long wallBefore = System.nanoTime();
    Map<String, String> properties = Map.of(
        LadderRungSimulation.BASE_URL, baseUrl,
        LadderRungSimulation.RATE, Double.toString(rate),
        LadderRungSimulation.NUM_PROMPTS, Integer.toString(prompts),
        LadderRungSimulation.OUTPUT_TOKENS, Integer.toString(OUTPUT_TOKENS),
        // The console writer's 5-second tables would bury the ladder's own output.
        "gatling.data.writers.0", "file");
    properties.forEach(System::setProperty);
    int code;
    try {
      code = Gatling$.MODULE$.fromArgs(new String[] {
          "--simulation", LadderRungSimulation.class.getName(),
          "--results-folder", RESULTS.toString(),
          "--no-reports",
          "--launcher", "maven",
          "--build-tool-version", "ladder"});
    } finally {
      properties.keySet().forEach(System::clearProperty);
    }
    double wall = (System.nanoTime() - wallBefore) / 1e9;
    double[] parkLate = probe.stop();
    double[] lateAfter = timerLateness(baseUrl);
    double lateCount = lateAfter[1] - lateBefore[1];
    Rung r = new Rung(rate, prompts, code, LadderRungSimulation.captured(),
        lateCount > 0 ? (lateAfter[0] - lateBefore[0]) / lateCount * 1e3 : 0,
        (processCpuTicks(ProcessHandle.current().pid()) - cliCpuBefore) / CLOCK_TICKS,
        (processCpuTicks(sim.pid()) - simCpuBefore) / CLOCK_TICKS,
        gcMillis() - gcBefore, simulatorGcMillis() - simGcBefore, parkLate, wall, loadAverage().split(" ")[0]);
    if (DUMP != null) {
      dump(Path.of(DUMP + "-" + Math.round(rate) + ".csv"), LadderRungSimulation.captured());
    }
    System.out.printf(Locale.ROOT, "rung %.0f req/s: %d prompts, exit %d, %.1f s%n",
        rate, prompts, code, wall);
    return r;
  }

  /**
   * Runs the ladder in a JVM of its own, started the way gatling:test forks one (its heap
   * limit, inlining flags and module openings): under exec:java this JVM is Maven's, where
   * Gatling's log writer cannot reach String internals and whose heap Maven shares.
   */
  private static int relaunch() throws Exception {
    List<String> command = new ArrayList<>(List.of(javaBinary(),
        "-Xmx1G", "-XX:MaxInlineLevel=20", "-XX:MaxTrivialSize=12",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED"));
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("ladder.")) {
        command.add("-D" + name + "=" + System.getProperty(name));
      }
    }
    command.addAll(List.of("-cp", testClasspath(), ClientOverheadLadder.class.getName()));
    Process child = new ProcessBuilder(command).inheritIO().start();
    try {
      return child.waitFor();
    } finally {
      child.destroy();
    }
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Process startSimulator() throws IOException {
    List<String> command = List.of(javaBinary(), "-cp", testClasspath(), "dev.gatlingllm.sim.Main",
        "--port", "0", "--ttft-ms", Long.toString(TTFT_MS), "--itl-ms", Long.toString(ITL_MS),
        "--jitter", "0", "--prefill-us-per-token", "0", "--max-running", "100000",
        "--io-threads", Integer.toString(SIM_THREADS));
    command = new ArrayList<>(command);
    // Its pauses are logged so that each rung can show how much of the tail is the
    // simulator's collector rather than the client.
    command.add(1, "-Xlog:gc:file=" + SIM_GC_LOG);
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /**
   * The test class path. Under exec:java the classes come from a class loader Maven built,
   * while {@code java.class.path} names only Maven's own launcher; outside Maven it is the
   * other way round.
   */
  private static String testClasspath() {
    ClassLoader loader = ClientOverheadLadder.class.getClassLoader();
    if (loader instanceof URLClassLoader urls && urls.getURLs().length > 1) {
      List<String> paths = new ArrayList<>();
      for (URL url : urls.getURLs()) {
        paths.add(Path.of(URI.create(url.toString())).toString());
      }
      return String.join(File.pathSeparator, paths);
    }
    return System.getProperty("java.class.path");
  }

  /** Reads the simulator's first line for its address; gives up after 30 s. */
  private static String awaitBaseUrl(Process sim) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(sim.getInputStream(),
        StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    StringBuilder seen = new StringBuilder();
    while (System.nanoTime() < deadline) {
      String line = out.readLine();
      if (line == null) {
        break;
      }
      seen.append(line).append('\n');
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        // Keep draining its output so a chatty simulator never blocks on a full pipe.
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "sim-output");
        drain.setDaemon(true);
        drain.start();
        return m.group(1);
      }
    }
    throw new IllegalStateException("the simulator did not start; its output:\n" + seen);
  }

  /** The simulator's timer lateness so far: {sum seconds, count}. */
  private static double[] timerLateness(String baseUrl) throws IOException {
    var conn = URI.create(baseUrl + "/metrics").toURL().openConnection();
    double sum = 0;
    double count = 0;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(conn.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("gatling_llm_sim_timer_lateness_seconds_sum ")) {
          sum = Double.parseDouble(line.substring(line.indexOf(' ') + 1));
        } else if (line.startsWith("gatling_llm_sim_timer_lateness_seconds_count ")) {
          count = Double.parseDouble(line.substring(line.indexOf(' ') + 1));
        }
      }
    }
    return new double[] {sum, count};
  }

  /** User plus system CPU of a process in clock ticks, from /proc/<pid>/stat. */
  private static long processCpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }

  /**
   * One line per request, in send order, to see where in a rung the outliers fall: times in
   * ms from the first scheduled arrival, errors as in the table.
   */
  private static void dump(Path file, List<RequestRecord> records) throws IOException {
    long t0 = records.stream().mapToLong(RequestRecord::scheduledNanos).min().orElse(0);
    StringBuilder sb = new StringBuilder("scheduled_ms,send_late_ms,ttft_err_ms,itl_err_max_ms\n");
    records.stream().sorted((a, b) -> Long.compare(a.startNanos(), b.startNanos())).forEach(r -> {
      double itlMax = Double.NaN;
      for (int j = 0; j < r.itlCount(); j++) {
        itlMax = Double.isNaN(itlMax) ? r.itlMillis(j) - ITL_MS : Math.max(itlMax, r.itlMillis(j) - ITL_MS);
      }
      sb.append(String.format(Locale.ROOT, "%.3f,%.3f,%.3f,%.3f%n", (r.scheduledNanos() - t0) / 1e6,
          r.waitNanos() / 1e6, r.ttftMillis() - TTFT_MS, itlMax));
    });
    Files.writeString(file, sb);
  }

  /** Total pause time the simulator's GC log shows so far. */
  private static double simulatorGcMillis() {
    try {
      double total = 0;
      for (String line : Files.readAllLines(SIM_GC_LOG)) {
        Matcher m = GC_PAUSE.matcher(line);
        if (m.find()) {
          total += Double.parseDouble(m.group(1));
        }
      }
      return total;
    } catch (IOException e) {
      return Double.NaN;
    }
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a";
    }
  }

  /** Linear interpolation between closest ranks (numpy's default) of a sorted array. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
  }

  /**
   * The floor the machine itself sets: a plain thread in the client JVM that parks for 1 ms
   * over and over and records how much later than asked it woke up. Nothing of the plugin
   * runs on it, so a stall it sees too (scheduler, safepoint, another process hogging the
   * cores) is not the plugin's overhead.
   */
  private static final class ParkProbe implements Runnable {
    private static final long PARK_NANOS = 1_000_000;
    private static final int MAX_SAMPLES = 200_000;

    private final double[] lateMs = new double[MAX_SAMPLES];
    private final Thread thread = new Thread(this, "ladder-park-probe");
    private volatile boolean running = true;
    private int count;

    static ParkProbe start() {
      ParkProbe probe = new ParkProbe();
      probe.thread.setDaemon(true);
      probe.thread.start();
      return probe;
    }

    @Override
    public void run() {
      while (running && count < MAX_SAMPLES) {
        long before = System.nanoTime();
        LockSupport.parkNanos(PARK_NANOS);
        lateMs[count++] = (System.nanoTime() - before - PARK_NANOS) / 1e6;
      }
    }

    /** Stops the probe; returns its sorted oversleeps in ms. */
    double[] stop() throws InterruptedException {
      running = false;
      thread.join();
      double[] sorted = Arrays.copyOf(lateMs, count);
      Arrays.sort(sorted);
      return sorted;
    }
  }

  /** The figures of one rung, computed from the client's records. */
  private static final class Rung {
    private final double rate;
    private final int prompts;
    private final int exitCode;
    private final int completed;
    private final int failed;
    private final double sendRate;
    private final double doneRate;
    private final double meanConcurrency;
    private final int peakConcurrency;
    private final double[] ttftErr;
    private final double[] itlErr;
    private final double[] sendLate;
    private final double simLateMs;
    private final double cliCpuPct;
    private final double simCpuPct;
    private final long gcMs;
    private final double simGcMs;
    private final double[] parkLate;
    private final String load;

    Rung(double rate, int prompts, int exitCode, List<RequestRecord> records, double simLateMs,
        double cliCpuSeconds, double simCpuSeconds, long gcMs, double simGcMs, double[] parkLate, double wallSeconds,
        String load) {
      this.rate = rate;
      this.prompts = prompts;
      this.exitCode = exitCode;
      this.simLateMs = simLateMs;
      this.gcMs = gcMs;
      this.simGcMs = simGcMs;
      this.parkLate = parkLate;
      this.load = load;
      List<RequestRecord> ok = records.stream().filter(RequestRecord::success)
          .collect(Collectors.toList());
      this.completed = ok.size();
      this.failed = records.size() - ok.size();
      long firstStart = Long.MAX_VALUE;
      long lastStart = Long.MIN_VALUE;
      long lastEnd = Long.MIN_VALUE;
      double busyNanos = 0;
      int itls = ok.stream().mapToInt(RequestRecord::itlCount).sum();
      ttftErr = new double[ok.size()];
      itlErr = new double[itls];
      sendLate = new double[records.size()];
      long[][] events = new long[2 * ok.size()][];
      int i = 0;
      int k = 0;
      for (RequestRecord r : ok) {
        firstStart = Math.min(firstStart, r.startNanos());
        lastStart = Math.max(lastStart, r.startNanos());
        lastEnd = Math.max(lastEnd, r.startNanos() + r.latencyNanos());
        busyNanos += r.latencyNanos();
        ttftErr[i] = r.ttftMillis() - TTFT_MS;
        for (int j = 0; j < r.itlCount(); j++) {
          itlErr[k++] = r.itlMillis(j) - ITL_MS;
        }
        events[2 * i] = new long[] {r.startNanos(), 1};
        events[2 * i + 1] = new long[] {r.startNanos() + r.latencyNanos(), -1};
        i++;
      }
      for (int j = 0; j < records.size(); j++) {
        sendLate[j] = records.get(j).waitNanos() / 1e6;
      }
      Arrays.sort(ttftErr);
      Arrays.sort(itlErr);
      Arrays.sort(sendLate);
      // Ends sort before starts at the same instant: a request that ends as another starts
      // does not overlap it.
      Arrays.sort(events, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
      int now = 0;
      int peak = 0;
      for (long[] e : events) {
        now += (int) e[1];
        peak = Math.max(peak, now);
      }
      this.peakConcurrency = peak;
      this.sendRate = ok.size() > 1 ? (ok.size() - 1) / ((lastStart - firstStart) / 1e9) : 0;
      this.doneRate = ok.isEmpty() ? 0 : ok.size() / ((lastEnd - firstStart) / 1e9);
      this.meanConcurrency = ok.isEmpty() ? 0 : busyNanos / (lastEnd - firstStart);
      this.cliCpuPct = cliCpuSeconds / wallSeconds * 100;
      this.simCpuPct = simCpuSeconds / wallSeconds * 100;
    }

    static String header() {
      return String.format(Locale.ROOT,
          "| rate | prompts | ok/failed | sent/s | done/s | conc mean/peak"
              + " | TTFT err p50 / p99 / max | ITL err p50 / p99 / max | send late p50 / p99"
              +  " | sim late mean | park late p99 / max | client CPU | sim CPU | GC client / sim | load 1m |%n"
              + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    }

    String row() {
      return String.format(Locale.ROOT,
          "| %.0f | %d | %d/%d%s | %.1f | %.1f | %.1f / %d | %s | %s | %.3f / %.3f | %.3f"
              + " | %.3f / %.3f | %.0f %% | %.0f %% | %d / %.0f | %s |",
          rate, prompts, completed, failed, exitCode == 0 ? "" : " (exit " + exitCode + ")",
          sendRate, doneRate, meanConcurrency, peakConcurrency, triple(ttftErr), triple(itlErr),
          percentile(sendLate, 50), percentile(sendLate, 99), simLateMs,
          percentile(parkLate, 99), parkLate.length == 0 ? Double.NaN : parkLate[parkLate.length - 1],
          cliCpuPct, simCpuPct,
          gcMs, simGcMs, load);
    }

    private static String triple(double[] sorted) {
      return String.format(Locale.ROOT, "%.3f / %.3f / %.3f", percentile(sorted, 50),
          percentile(sorted, 99), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]);
    }
  }
}
