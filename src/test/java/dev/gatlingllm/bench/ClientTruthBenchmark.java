package dev.gatlingllm.bench;

import dev.gatlingllm.internal.arrival.GammaCdf;
import dev.gatlingllm.internal.selfcheck.JvmSettings;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How true are the plugin's TTFT and ITL figures, compared with the wire? The client-truth
 * benchmark (issue "beat vLLM's own client head to head on one core"):
 *
 * <ul>
 *   <li>the embedded simulator runs in its own JVM pinned to core 0 with {@code --chunk-log}:
 *       it stamps when each request arrived and when each chunk was handed to the socket, on
 *       {@code CLOCK_MONOTONIC}, which every process on the machine shares;
 *   <li>each rung is a plain {@code ./mvnw -B gatling:test} of {@link ClientTruthSimulation}
 *       pinned to core 1 with {@code taskset}: the JVM flags and warm-up a user gets;
 *   <li>every reported TTFT is compared with the server's (first write − arrival), every
 *       reported inter-token gap with the gap between the two writes, request by request
 *       ({@code x-request-id}); send lateness is start − scheduled; the client JVM's CPU comes
 *       from {@code /proc/<pid>/stat} over the run window (first send to last chunk), its
 *       largest resident set from {@code VmHWM} in {@code /proc/<pid>/status};
 *   <li>paced rungs also test the gaps between sends against the profile's gamma distribution
 *       (Kolmogorov-Smirnov, 1 % level).
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B -q test-compile exec:java
 * -Dexec.mainClass=dev.gatlingllm.bench.ClientTruthBenchmark}. {@code -Dtruth.rungs=c16,c64}
 * picks rungs, run in that order, a name given twice run twice (default: all, in the order
 * of {@link #RUNGS}). Writes {@code target/truth/results.md}. The plugin's rungs also run
 * where users run it, in a project the archetype generates: {@code user-c64} (the drop-in),
 * {@code userdsl-c64} (a one-import simulation), {@code userbare-c64} (the drop-in without the
 * project's {@code <jvmArgs>}); see {@link UserPath}.
 */
public final class ClientTruthBenchmark {

  private static final Path DIR = Path.of("target", "truth");
  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
  private static final double CLOCK_TICKS = 100.0;
  private static final long TTFT_MS = 50;
  private static final long ITL_MS = 10;

  /**
   * One rung. {@code vllm} holds the figures vLLM's benchmark_serving.py (May 2025) gave in
   * the same set-up on this VM class, from the issue that asked for this benchmark: abs ITL
   * error p99, TTFT error p50, TTFT error p99 (ms), client CPU (% of a core); null where
   * none was measured.
   */
  record Rung(String name, String rate, double burstiness, int maxConcurrency, int numPrompts,
      int outputLen, double[] vllm) {}

  /** Rungs named so run {@link FloorClient} instead of the plugin. */
  static final String FLOOR = "floor-";

  static final List<Rung> RUNGS = List.of(
      new Rung("c16", "inf", 1, 16, 64, 128, new double[] {0.9, 5.1, 8.2, 9}),
      new Rung("c64", "inf", 1, 64, 256, 128, new double[] {0.8, 12.2, 18.0, 15}),
      new Rung("c256", "inf", 1, 256, 1024, 128, new double[] {7.8, 51.4, 84.0, 52}),
      new Rung("c512", "inf", 1, 512, 2048, 128, new double[] {17.5, 129.4, 212.4, 94}),
      new Rung("c1024", "inf", 1, 1024, 4096, 128, new double[] {53.8, 332.4, 511.4, 98}),
      new Rung("poisson150", "150", 1, 0, 1500, 128, new double[] {4.3, Double.NaN, 14.0, 54}),
      new Rung("gamma100", "100", 0.5, 0, 2000, 16, null),
      new Rung("poisson1000", "1000", 1, 0, 5000, 16, null),
      // The machine's floor: the least a client can do (FloorClient), same core, same server.
      new Rung(FLOOR + "c16", "inf", 1, 16, 64, 128, new double[] {0.9, 5.1, 8.2, 9}),
      new Rung(FLOOR + "c64", "inf", 1, 64, 256, 128, new double[] {0.8, 12.2, 18.0, 15}),
      new Rung(FLOOR + "c256", "inf", 1, 256, 1024, 128, new double[] {7.8, 51.4, 84.0, 52}),
      new Rung(FLOOR + "c512", "inf", 1, 512, 2048, 128, new double[] {17.5, 129.4, 212.4, 94}),
      new Rung(FLOOR + "c1024", "inf", 1, 1024, 4096, 128,
          new double[] {53.8, 332.4, 511.4, 98}),
      // The floor of pacing: FloorClient sending on a Poisson schedule, streams running.
      new Rung(FLOOR + "poisson1000", "1000", 1, 0, 5000, 16, null));

  private ClientTruthBenchmark() {}

  /**
   * The rung of that name: one of {@link #RUNGS}, or a plugin rung of them with a {@link
   * UserPath} prefix ({@code user-c64}, {@code userdsl-c64}, {@code userbare-c64}), run in a
   * project generated by the archetype.
   */
  static Rung rung(String name) {
    Optional<String> user = UserPath.prefix(name);
    String base = user.map(p -> name.substring(p.length())).orElse(name);
    Rung rung = RUNGS.stream().filter(r -> r.name().equals(base)).findFirst()
        .filter(r -> user.isEmpty() || !base.startsWith(FLOOR))
        .orElseThrow(() -> new IllegalArgumentException("no rung named '" + name
            + "' in truth.rungs; rungs: " + String.join(",", RUNGS.stream().map(Rung::name)
            .toList()) + ", and the plugin's with a prefix of " + UserPath.PREFIXES));
    return user.isEmpty() ? rung : new Rung(name, rung.rate(), rung.burstiness(),
        rung.maxConcurrency(), rung.numPrompts(), rung.outputLen(), rung.vllm());
  }

  public static void main(String[] args) throws Exception {
    Files.createDirectories(DIR);
    List<String> wanted = Arrays.asList(System.getProperty("truth.rungs",
        String.join(",", RUNGS.stream().map(Rung::name).toList())).split(","));
    for (String name : wanted) {
      rung(name);
    }
    boolean pinned = hasTaskset();
    if (pinned) {
      // This JVM only waits and samples /proc: keep it off the client's core.
      run(List.of("taskset", "-a", "-p", "-c", "0", Long.toString(ProcessHandle.current().pid())));
    }
    System.out.printf(Locale.ROOT, "cores=%d, java %s, %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), pinned
            ? "simulator on core 0, client (./mvnw gatling:test) on core 1"
            : "taskset not found: NOT pinned, figures include cross-core noise");
    String wakeBefore = "before the ladder, "
        + WakeProbe.measure(pinned, testClasspath(), WakeProbe.MESSAGES);
    System.out.println(wakeBefore);
    Process sim = startSimulator(pinned);
    List<String> rows = new ArrayList<>();
    try {
      String baseUrl = awaitBaseUrl(sim);
      // The server is a JVM too: a cold one parses the first requests slowly, and that input
      // queue shows up as every client's TTFT error. Warm it up first, unreported, as the
      // reference figures were taken against a warm server.
      System.out.println("warming up the simulator (not reported)");
      warmUpServer(sim.pid(), baseUrl, pinned);
      for (String name : wanted) {
        Result r = runRung(rung(name), sim.pid(), baseUrl, pinned);
        rows.add(r.row());
        System.out.println(Result.header());
        System.out.println(r.row());
      }
    } finally {
      sim.destroy();
      sim.waitFor(5, TimeUnit.SECONDS);
    }
    String wakeAfter = "after the ladder, "
        + WakeProbe.measure(pinned, testClasspath(), WakeProbe.MESSAGES);
    String table = String.join("\n", Result.header(), Result.separator(), String.join("\n", rows));
    String host = "Host: " + wakeBefore + "; " + wakeAfter + ".";
    Files.writeString(DIR.resolve("results.md"), host + "\n\n" + table + "\n");
    System.out.println();
    System.out.println(host);
    System.out.println(table);
    System.out.println("load average at end: " + Files.readString(Path.of("/proc/loadavg")).trim());
  }

  /** Warm-up rounds after the plugin's own warm-up rung: at most this many. */
  private static final int SERVER_WARM_UP_ROUNDS = Integer.getInteger("truth.serverWarmUps", 10);
  /**
   * A round in which the server's compilers used less than this share of its core (in
   * percent) ends the warm-up. Tiered compilation has a long tail: it does not reach zero.
   */
  private static final double SERVER_JIT_QUIET_PERCENT =
      Double.parseDouble(System.getProperty("truth.serverJitQuietPercent", "1"));
  /** Who sends the warm-up rounds: {@code floor} (cheap, the default) or {@code plugin}. */
  private static final String WARM_UP_PREFIX =
      "plugin".equals(System.getProperty("truth.serverWarmUpClient")) ? "" : FLOOR;

  /**
   * Warms the simulator until its JIT compilers are quiet: one rung of the plugin (its
   * request shape, at C = 256), then {@link FloorClient} rounds through {@link
   * #WARM_UP_SHAPES} (each at least once) and on in turn until one costs the server's C1 and
   * C2 threads under
   * {@link #SERVER_JIT_QUIET_PERCENT} of its core. One plugin rung alone was not enough:
   * {@code perf sched} during a later C = 64 rung showed the server's C2 thread holding the
   * server's core for 3-4 ms at a time while requests waited in its socket, and the server
   * compiled for another 0.5-2 s of CPU in each of the next four to five rounds
   * (docs/client-overhead.md, "The instrument").
   */
  private static void warmUpServer(long simPid, String baseUrl, boolean pinned) throws Exception {
    Rung shape = new Rung("server-warm-up", "inf", 1, 256, 1024, 128, null);
    double percent = Double.MAX_VALUE;
    for (int round = 0; round <= SERVER_WARM_UP_ROUNDS
        && (percent >= SERVER_JIT_QUIET_PERCENT || round <= WARM_UP_SHAPES.size()); round++) {
      long jit = serverJitMillis(simPid);
      long start = System.nanoTime();
      runRung(shape, simPid, baseUrl, pinned);
      long jitMillis = serverJitMillis(simPid) - jit;
      percent = jitMillis * 1e8 / (System.nanoTime() - start);
      System.out.printf(Locale.ROOT, "  server JIT in %s (%s): %d ms of CPU, %.1f %% of its core%n",
          shape.name(), shape.maxConcurrency() > 0 ? "C = " + shape.maxConcurrency()
              : shape.rate() + " req/s", jitMillis, percent);
      Rung next = WARM_UP_SHAPES.get(round % WARM_UP_SHAPES.size());
      shape = new Rung(WARM_UP_PREFIX + "server-warm-up-" + (round + 1), next.rate(), 1,
          next.maxConcurrency(), next.numPrompts(), next.outputLen(), null);
    }
    if (percent >= SERVER_JIT_QUIET_PERCENT) {
      System.out.println("  WARNING: the server still compiles; see the server JIT column");
    }
  }

  /**
   * The loads the warm-up rounds cycle through (their names and bursts are not used): a server
   * that only saw C = 256 still compiled for about a second in a later C = 1024 rung (new
   * batch sizes take new branches), and one that had seen only closed loops compiled for
   * 150-240 ms in the first 1,000 req/s rung (short streams, a new connection now and then):
   * bursts of late chunks that the client under test then had to read at once.
   */
  private static final List<Rung> WARM_UP_SHAPES = List.of(
      new Rung("", "inf", 1, 1024, 4096, 128, null),
      new Rung("", "1000", 1, 0, 5000, 16, null),
      new Rung("", "inf", 1, 64, 256, 128, null),
      new Rung("", "inf", 1, 256, 1024, 128, null));

  /** CPU ms the server JVM's JIT compiler threads have used so far. */
  static long serverJitMillis(long pid) {
    return CpuSampler.threadTicks(pid).entrySet().stream()
        // threadTicks folds digits: "C1 CompilerThre" and "C2 CompilerThre" are both "C#..."
        .filter(e -> e.getKey().startsWith("C# CompilerThre"))
        .mapToLong(Map.Entry::getValue).sum() * 10;
  }

  private static Result runRung(Rung rung, long simPid, String baseUrl, boolean pinned)
      throws Exception {
    Path out = DIR.resolve(rung.name()).toAbsolutePath();
    Files.deleteIfExists(Path.of(out + ".pid"));
    Files.deleteIfExists(Path.of(out + "-client.csv"));
    fetch(baseUrl + "/debug/chunk-log"); // drop whatever an earlier rung left
    List<String> command = new ArrayList<>(onCore(pinned, 1));
    Optional<String> user = UserPath.prefix(rung.name());
    Path project = user.isPresent() ? UserPath.project(DIR, user.get()) : null;
    if (user.isPresent()) {
      command.addAll(UserPath.command(user.get(), rung, baseUrl));
    } else if (rung.name().startsWith(FLOOR)) {
      command.add(JAVA);
      // The plugin's forked JVM's flags (the pom's, held to JvmSettings by a test): the floor
      // must not pay for a compiler the plugin's JVM does not run (with the JVM's defaults its
      // C2 took 20-40 % of the core in the run).
      command.addAll(JvmSettings.jvmArgs());
      command.addAll(List.of("-cp", testClasspath(), FloorClient.class.getName(), baseUrl,
          Integer.toString(rung.maxConcurrency()), Integer.toString(rung.numPrompts()),
          out.toString(), rung.rate().equals("inf") ? "Infinity" : rung.rate(),
          Integer.toString(rung.outputLen())));
    } else {
      command.addAll(List.of("./mvnw", "-B", "gatling:test",
          "-Dgatling.simulationClass=" + ClientTruthSimulation.class.getName(),
          "-Dtruth.baseUrl=" + baseUrl, "-Dtruth.model=" + MODEL, "-Dtruth.rate=" + rung.rate(),
          "-Dtruth.burstiness=" + rung.burstiness(),
          "-Dtruth.maxConcurrency=" + rung.maxConcurrency(),
          "-Dtruth.numPrompts=" + rung.numPrompts(), "-Dtruth.outputLen=" + rung.outputLen(),
          "-Dtruth.out=" + out));
    }
    Path log = DIR.resolve(rung.name() + ".log");
    System.out.printf(Locale.ROOT, "rung %s: %s (log: %s)%n", rung.name(), String.join(" ", command), log);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toAbsolutePath().toFile());
    if (project != null) {
      builder.directory(project.toFile());
    }
    Process mvn = builder.start();
    // the user's project writes no pid file: its client is the JVM Maven forks
    CpuSampler cpu = project == null ? new CpuSampler(Path.of(out + ".pid"), mvn, simPid)
        : new CpuSampler(() -> UserPath.forkedJvm(mvn), mvn, simPid);
    cpu.start();
    int code = mvn.waitFor();
    cpu.join();
    if (code != 0) {
      System.out.println("  gatling:test exited with " + code + ", see " + log);
    }
    String serverLog = fetch(baseUrl + "/debug/chunk-log");
    Files.writeString(Path.of(out + "-server.log"), serverLog);
    Map<String, long[]> server = parseServerLog(serverLog);
    List<ClientRecord> client = project != null ? UserPath.records(project)
        : ClientRecord.read(Path.of(out + "-client.csv"));
    Result result = Result.of(rung, client, server, cpu);
    long from = client.stream().mapToLong(ClientRecord::start).min().orElse(0);
    long to = client.stream().mapToLong(ClientRecord::lastChunkNanos).max().orElse(0);
    System.out.println("  client CPU by thread in the run window: " + cpu.topThreads(from, to, 8));
    System.out.printf(Locale.ROOT, "  server JIT in the run window: %d ms of CPU on its core%n",
        result.serverJitMillis());
    System.out.println("  TTFT error, " + result.ttftSplit());
    return result;
  }

  /** A request as the plugin recorded it. */
  record ClientRecord(String id, long scheduled, long start, long ttft, boolean success,
      int[] chunkMicros) {

    long lastChunkNanos() {
      return chunkMicros.length == 0 ? start : start + chunkMicros[chunkMicros.length - 1] * 1_000L;
    }

    static List<ClientRecord> read(Path csv) throws IOException {
      List<ClientRecord> records = new ArrayList<>();
      for (String line : Files.readAllLines(csv)) {
        String[] f = line.split(",", -1);
        int[] chunks = f[5].isEmpty() ? new int[0]
            : Arrays.stream(f[5].split(";")).mapToInt(Integer::parseInt).toArray();
        records.add(new ClientRecord(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]),
            Long.parseLong(f[3]), Boolean.parseBoolean(f[4]), chunks));
      }
      return records;
    }
  }

  /** Request id to {received, write 0, write 1, ...} from the simulator's chunk log. */
  static Map<String, long[]> parseServerLog(String text) {
    Map<String, long[]> byId = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.trim().split(" ");
      long[] times = new long[f.length - 1];
      for (int i = 1; i < f.length; i++) {
        times[i - 1] = Long.parseLong(f[i]);
      }
      byId.put(f[0], times);
    }
    return byId;
  }

  /** Samples the client JVM's CPU time from /proc while its Maven run lasts. */
  static final class CpuSampler extends Thread {
    private final java.util.function.LongSupplier pidSource;
    private final Process mvn;
    private final List<long[]> samples = new ArrayList<>(); // {nanoTime, ticks}
    /** Per thread name: {nanoTime, ticks} samples summed over threads of that name. */
    private final List<Map<String, Long>> threadSamples = new ArrayList<>();

    /**
     * The client's total CPU is read every 20 ms (one small file). Its threads' figures, which
     * the run window's per-thread line needs, only every 500 ms: reading the stat file of each
     * of the Gatling JVM's ~50 threads every 20 ms kept this JVM busy on the server's core
     * (see docs/client-overhead.md, "The instrument").
     */
    private static final long SAMPLE_MILLIS = Long.getLong("truth.sampleMillis", 20);
    private static final int THREAD_EVERY =
        (int) Math.max(1, Long.getLong("truth.threadSampleMillis", 500) / SAMPLE_MILLIS);
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private long count;

    private final long serverPid;
    /** {nanoTime, server JIT CPU ms so far}, every {@link #SERVER_EVERY}-th sample. */
    private final List<long[]> serverJit = new ArrayList<>();
    private static final int SERVER_EVERY = (int) Math.max(1, 100 / SAMPLE_MILLIS);
    /**
     * {nanoTime, steal ticks of the client's core (cpu1) + the server's (cpu0)}, with the
     * server JIT samples: the time the hypervisor ran something else while this VM's CPU
     * had work. On a shared host it freezes a core for milliseconds, which every figure here
     * then carries, the floor client's too.
     */
    private final List<long[]> steal = new ArrayList<>();
    /**
     * The client JVM's peak resident set so far ({@code VmHWM}, kB), read with the server's
     * figures: the kernel keeps the peak, so sampling every 100 ms misses only what the last
     * 100 ms before the JVM's exit added (Gatling's report, after the run).
     */
    private long peakResidentKb;

    CpuSampler(Path pidFile, Process mvn, long serverPid) {
      this(() -> readPid(pidFile), mvn, serverPid);
    }

    /** {@code pid} gives the client's pid, or -1 while it is not known yet. */
    CpuSampler(java.util.function.LongSupplier pid, Process mvn, long serverPid) {
      super("cpu-sampler");
      this.pidSource = pid;
      this.mvn = mvn;
      this.serverPid = serverPid;
      setDaemon(true);
    }

    @Override
    public void run() {
      long pid = -1;
      while (mvn.isAlive()) {
        try {
          if (pid < 0) {
            pid = pidSource.getAsLong();
          }
          if (pid > 0) {
            long now = System.nanoTime();
            long ticks = cpuTicks(pid);
            if (count % SERVER_EVERY == 0) {
              long jit = ClientTruthBenchmark.serverJitMillis(serverPid);
              long stolen = stealTicks();
              long resident = peakResidentKb(pid);
              synchronized (samples) {
                serverJit.add(new long[] {now, jit});
                steal.add(new long[] {now, stolen});
                peakResidentKb = Math.max(peakResidentKb, resident);
              }
            }
            // Per-thread figures only every THREAD_EVERY-th sample: reading every thread's
            // stat file is the costly part, and this JVM shares core 0 with the server.
            Map<String, Long> threads = count++ % THREAD_EVERY == 0 ? threadTicks(pid) : null;
            if (ticks >= 0) {
              synchronized (samples) {
                samples.add(new long[] {now, ticks});
                threadSamples.add(threads);
              }
            }
          }
          Thread.sleep(SAMPLE_MILLIS);
        } catch (InterruptedException e) {
          return;
        } catch (IOException | RuntimeException e) {
          // the pid file is being written, or the process just ended
        }
      }
    }

    private static long readPid(Path pidFile) {
      try {
        return Files.exists(pidFile) ? Long.parseLong(Files.readString(pidFile).trim()) : -1;
      } catch (IOException | NumberFormatException e) {
        return -1; // being written
      }
    }

    /** CPU seconds the client used between two instants, from the samples around them. */
    double cpuSeconds(long fromNanos, long toNanos) {
      synchronized (samples) {
        return (ticksAt(toNanos) - ticksAt(fromNanos)) / CLOCK_TICKS;
      }
    }

    /** Host steal ms on the two cores between the samples nearest two instants. */
    long stealMillis(long fromNanos, long toNanos) {
      synchronized (samples) {
        return (nearest(steal, toNanos) - nearest(steal, fromNanos)) * 10;
      }
    }

    /** The client JVM's largest resident set while sampled, in MB (0 when never read). */
    double peakResidentMb() {
      synchronized (samples) {
        return peakResidentKb / 1024.0;
      }
    }

    /** {@code VmHWM} of a process in kB ({@code /proc/<pid>/status}), or 0 where unreadable. */
    static long peakResidentKb(long pid) {
      try {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
          if (line.startsWith("VmHWM:")) {
            return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
          }
        }
      } catch (IOException | RuntimeException e) {
        // the process just ended
      }
      return 0;
    }

    /** Steal ticks of cpu0 and cpu1 so far ({@code /proc/stat}), or 0 where unreadable. */
    static long stealTicks() {
      try {
        long sum = 0;
        for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
          if (line.startsWith("cpu0 ") || line.startsWith("cpu1 ")) {
            String[] f = line.trim().split("\\s+");
            sum += f.length > 8 ? Long.parseLong(f[8]) : 0;
          }
        }
        return sum;
      } catch (IOException | RuntimeException e) {
        return 0;
      }
    }

    /** The server's JIT CPU ms between the samples nearest two instants. */
    long serverJitMillis(long fromNanos, long toNanos) {
      synchronized (samples) {
        return nearest(serverJit, toNanos) - nearest(serverJit, fromNanos);
      }
    }

    private static long nearest(List<long[]> series, long nanos) {
      long[] best = null;
      for (long[] s : series) {
        if (best == null || Math.abs(s[0] - nanos) < Math.abs(best[0] - nanos)) {
          best = s;
        }
      }
      return best == null ? 0 : best[1];
    }

    /** CPU ms per thread-name group between two instants (nearest samples), largest first. */
    String topThreads(long fromNanos, long toNanos, int n) {
      synchronized (samples) {
        int from = nearestWithThreads(fromNanos);
        int to = nearestWithThreads(toNanos);
        if (from < 0 || to < 0) {
          return "";
        }
        Map<String, Long> a = threadSamples.get(from);
        Map<String, Long> b = threadSamples.get(to);
        return b.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), e.getValue() - a.getOrDefault(e.getKey(), 0L)))
            .filter(e -> e.getValue() > 0)
            .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
            .limit(n)
            .map(e -> e.getKey() + " " + e.getValue() * 10 + " ms")
            .reduce((x, y) -> x + ", " + y).orElse("");
      }
    }

    private int nearestWithThreads(long nanos) {
      int best = -1;
      for (int i = 0; i < samples.size(); i++) {
        if (threadSamples.get(i) == null) {
          continue;
        }
        if (best < 0 || Math.abs(samples.get(i)[0] - nanos) < Math.abs(samples.get(best)[0] - nanos)) {
          best = i;
        }
      }
      return best;
    }

    /** utime + stime per thread, summed by thread name with digits folded ("gatling-1-#"). */
    static Map<String, Long> threadTicks(long pid) {
      Map<String, Long> byName = new HashMap<>();
      File[] tasks = new File("/proc/" + pid + "/task").listFiles();
      if (tasks == null) {
        return byName;
      }
      for (File task : tasks) {
        try {
          String stat = Files.readString(task.toPath().resolve("stat"));
          String name = DIGITS.matcher(stat.substring(stat.indexOf('(') + 1,
              stat.lastIndexOf(')'))).replaceAll("#");
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          byName.merge(name + " user", Long.parseLong(f[11]), Long::sum);
          byName.merge(name + " sys", Long.parseLong(f[12]), Long::sum);
        } catch (IOException | RuntimeException e) {
          // the thread ended between the listing and the read
        }
      }
      return byName;
    }

    private double ticksAt(long nanos) {
      long[] before = null;
      for (long[] s : samples) {
        if (s[0] <= nanos) {
          before = s;
        } else {
          if (before == null) {
            return s[1];
          }
          double f = (double) (nanos - before[0]) / (s[0] - before[0]);
          return before[1] + f * (s[1] - before[1]);
        }
      }
      return before == null ? Double.NaN : before[1];
    }

    private static long cpuTicks(long pid) throws IOException {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
  }

  /** What one rung measured. Times in ms. */
  record Result(Rung rung, int ok, int failed, int unmatched, double itlErrP50, double itlErrP99,
      double ttftErrP50, double ttftErrP99, double ttftErrMax, double firstWaveTtftErrP99,
      double cpuPercent, double[] late, double ksSchedule, double ksSent, double ksCritical,
      String ttftSplit, long serverJitMillis, long stealMillis, double peakResidentMb) {

    static Result of(Rung rung, List<ClientRecord> client, Map<String, long[]> server,
        CpuSampler cpu) {
      List<Double> ttftErr = new ArrayList<>();
      List<Double> firstWave = new ArrayList<>();
      List<Double> itlErr = new ArrayList<>();
      List<Double> requestLeg = new ArrayList<>();
      List<Double> answerLeg = new ArrayList<>();
      int ok = 0;
      int failed = 0;
      int unmatched = 0;
      long windowStart = Long.MAX_VALUE;
      long windowEnd = Long.MIN_VALUE;
      long firstStart = client.stream().mapToLong(ClientRecord::start).min().orElse(0);
      for (ClientRecord r : client) {
        windowStart = Math.min(windowStart, r.start());
        windowEnd = Math.max(windowEnd, r.lastChunkNanos());
        if (!r.success()) {
          failed++;
          continue;
        }
        ok++;
        long[] s = server.get(r.id());
        if (s == null || s.length - 1 != r.chunkMicros().length) {
          unmatched++;
          continue;
        }
        double err = (r.ttft() - (s[1] - s[0])) / 1e6;
        ttftErr.add(err);
        // The error's two legs: the request's (client clock start to server receipt) and the
        // first chunk's (server write to client read). They add up to the error.
        requestLeg.add((s[0] - r.start()) / 1e6);
        answerLeg.add((r.start() + r.ttft() - s[1]) / 1e6);
        if (r.start() - firstStart < 100_000_000L) {
          firstWave.add(err);
        }
        int[] c = r.chunkMicros();
        for (int i = 1; i < c.length; i++) {
          long clientGap = (c[i] - c[i - 1]) * 1_000L;
          long serverGap = s[i + 1] - s[i];
          itlErr.add(Math.abs(clientGap - serverGap) / 1e6);
        }
      }
      double[] ttft = sorted(ttftErr);
      double[] itl = sorted(itlErr);
      double cpuPct = 100 * cpu.cpuSeconds(windowStart, windowEnd) / ((windowEnd - windowStart) / 1e9);
      double[] late = new double[0];
      double ksSchedule = Double.NaN;
      double ksSent = Double.NaN;
      double ksCritical = Double.NaN;
      if (!rung.rate().equals("inf")) {
        List<ClientRecord> bySchedule = new ArrayList<>(client);
        bySchedule.sort((a, b) -> Long.compare(a.scheduled(), b.scheduled()));
        late = sorted(bySchedule.stream().map(r -> (r.start() - r.scheduled()) / 1e6).toList());
        double rate = Double.parseDouble(rung.rate());
        double shape = rung.burstiness();
        double scale = 1 / (rate * shape);
        double[] scheduleGaps = new double[bySchedule.size() - 1];
        double[] sentGaps = new double[bySchedule.size() - 1];
        for (int i = 1; i < bySchedule.size(); i++) {
          scheduleGaps[i - 1] = (bySchedule.get(i).scheduled() - bySchedule.get(i - 1).scheduled()) / 1e9;
          sentGaps[i - 1] = (bySchedule.get(i).start() - bySchedule.get(i - 1).start()) / 1e9;
        }
        ksSchedule = GammaCdf.ksStatistic(scheduleGaps, x -> GammaCdf.cdf(shape, scale, x));
        ksSent = GammaCdf.ksStatistic(sentGaps, x -> GammaCdf.cdf(shape, scale, x));
        ksCritical = GammaCdf.ksCritical(0.01, sentGaps.length);
      }
      return new Result(rung, ok, failed, unmatched, Stats.percentile(itl, 50),
          Stats.percentile(itl, 99), Stats.percentile(ttft, 50), Stats.percentile(ttft, 99),
          ttft.length == 0 ? Double.NaN : ttft[ttft.length - 1],
          Stats.percentile(sorted(firstWave), 99), cpuPct, late, ksSchedule, ksSent, ksCritical,
          String.format(Locale.ROOT, "request leg (server receipt - client start) p50 %.2f p99"
              + " %.2f ms, first-chunk leg (client read - server write) p50 %.2f p99 %.2f ms",
              Stats.percentile(sorted(requestLeg), 50), Stats.percentile(sorted(requestLeg), 99),
              Stats.percentile(sorted(answerLeg), 50), Stats.percentile(sorted(answerLeg), 99)),
          // The reference server's own compiling delays its reads and writes, which shows as
          // client error: in the table so that a rung that measured it is seen as such.
          cpu.serverJitMillis(windowStart, windowEnd), cpu.stealMillis(windowStart, windowEnd),
          cpu.peakResidentMb());
    }

    static String header() {
      return "| rung | ok/failed/unmatched | abs ITL err p50 / p99 (vLLM p99) | TTFT err p50 (vLLM) |"
          + " TTFT err p99 (vLLM) | TTFT err max / first 100 ms p99 | client CPU % (vLLM) |"
          + " send late p50 / p90 / p99 / p99.9 | KS schedule / sent (1 % crit) | server JIT ms |"
          + " host steal ms | client largest resident set MB |";
    }

    static String separator() {
      return "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
    }

    String row() {
      double[] v = rung.vllm();
      return String.format(Locale.ROOT,
          "| %s | %d/%d/%d | %.2f / %.2f (%s) | %.2f (%s) | %.2f (%s) | %.1f / %.1f | %.0f (%s) | %s | %s | %d | %d | %.0f |",
          rung.name(), ok, failed, unmatched, itlErrP50, itlErrP99, ref(v, 0), ttftErrP50,
          ref(v, 1), ttftErrP99, ref(v, 2), ttftErrMax, firstWaveTtftErrP99, cpuPercent,
          ref(v, 3),
          late.length == 0 ? "-" : String.format(Locale.ROOT, "%.3f / %.3f / %.3f / %.3f",
              Stats.percentile(late, 50), Stats.percentile(late, 90), Stats.percentile(late, 99),
              Stats.percentile(late, 99.9)),
          Double.isNaN(ksSent) ? "-" : String.format(Locale.ROOT, "%.3f / %.3f (%.3f)",
              ksSchedule, ksSent, ksCritical), serverJitMillis, stealMillis, peakResidentMb);
    }

    private static String ref(double[] v, int i) {
      return v == null || Double.isNaN(v[i]) ? "-" : String.format(Locale.ROOT, "%.1f", v[i]);
    }
  }

  static double[] sorted(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  /** This JVM's {@code java}, for the processes the benchmark starts. */
  static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

  /** The {@code taskset} prefix that pins a command to {@code core}; empty when not pinning. */
  static List<String> onCore(boolean pinned, int core) {
    return pinned ? List.of("taskset", "-c", Integer.toString(core)) : List.of();
  }

  /**
   * The served model: not the simulator's default, as a real server's is not (a stand-in
   * warm-up that only answered {@code sim-model} went unnoticed for a session).
   */
  static final String MODEL = "truth-model";

  private static Process startSimulator(boolean pinned) throws IOException {
    List<String> command = new ArrayList<>(onCore(pinned, 0));
    command.addAll(List.of(JAVA, "-Xms1g", "-Xmx1g"));
    // Extra flags for the server JVM, for experiments on the instrument (JIT logs and such).
    String extra = System.getProperty("truth.serverJvmArgs", "").trim();
    if (!extra.isEmpty()) {
      command.addAll(Arrays.asList(extra.split("\\s+")));
    }
    command.addAll(List.of("-cp", testClasspath(), "dev.gatlingllm.sim.Main",
        "--port", "0", "--model", MODEL,
        "--ttft-ms", Long.toString(TTFT_MS), "--itl-ms", Long.toString(ITL_MS),
        "--jitter", "0", "--max-running", "100000", "--io-threads", "1", "--chunk-log"));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private static String awaitBaseUrl(Process sim) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(sim.getInputStream(),
        StandardCharsets.UTF_8));
    String line;
    while ((line = lines.readLine()) != null) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread drain = new Thread(() -> lines.lines().forEach(l -> { }), "sim-output");
        drain.setDaemon(true);
        drain.start();
        return m.group(1);
      }
    }
    throw new IllegalStateException("the simulator ended before listening");
  }

  private static String fetch(String url) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(url + " answered " + r.statusCode());
    }
    return r.body();
  }

  private static boolean hasTaskset() {
    try {
      return run(List.of("taskset", "-p", Long.toString(ProcessHandle.current().pid()))) == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static int run(List<String> command) throws IOException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String testClasspath() {
    ClassLoader loader = ClientTruthBenchmark.class.getClassLoader();
    if (loader instanceof URLClassLoader urls && urls.getURLs().length > 1) {
      List<String> paths = new ArrayList<>();
      for (URL url : urls.getURLs()) {
        paths.add(Path.of(URI.create(url.toString())).toString());
      }
      return String.join(File.pathSeparator, paths);
    }
    return System.getProperty("java.class.path");
  }
}
