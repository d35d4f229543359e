package dev.gatlingllm.bench;

import dev.gatlingllm.internal.selfcheck.JvmSettings;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long does a short run take, end to end, and how much memory does the client hold? The
 * start-up and memory benchmark of issue 38, beside the client-truth one: whole processes of
 * the packaged launcher ({@code target/gatling-llm-VERSION/bin/gatling-llm}), as a user runs
 * it, not a JVM that Maven or a test already warmed.
 *
 * <ul>
 *   <li>the server is the launcher's own simulator, started once as a separate process
 *       ({@code gatling-llm sim}, ITL 10 ms), so every run of the client meets a server that
 *       is already warm;
 *   <li>{@code short}: the 10-request benchmark of the issue (random 32 / 16 tokens, rate inf),
 *       {@code startup.runs} times; each run's wall time, CPU time (user + system) and largest
 *       resident set come from {@code /usr/bin/time} where it is installed (the kernel's
 *       accounting of the whole process tree), else from {@code /proc} sampled every 10 ms;
 *       then one run without the class-data archive counts the classes it loads and the
 *       methods it compiles, which the machine's load does not move;
 *   <li>{@code memory}: the head-to-head's rungs (rate inf, max concurrency C, N = 4C, 64 / 128
 *       tokens, {@code --num-warmups auto}), the client pinned to one core with {@code
 *       taskset}: its largest resident set, and its wall and CPU;
 *   <li>{@code floor} (not by default): what a JVM with the launcher's settings costs when it
 *       only holds the classes a short run loads ({@link ClassFloor}): the part of a short
 *       run's CPU and memory no work of the run's own can remove.
 * </ul>
 *
 * <p>Run after {@code ./mvnw -B -o -q -DskipTests -Dfuzz.skip=true -DskipPitest package}:
 * {@code ./mvnw -B -q test-compile exec:java
 * -Dexec.mainClass=dev.gatlingllm.bench.StartupMemoryBenchmark}. Properties: {@code
 * startup.modes} (short,memory), {@code startup.runs} (5), {@code startup.rungs}
 * (64,256,1024), {@code startup.repeat} (runs per memory rung, 1), {@code startup.prime}
 * (first runs, reported apart: they make the launcher's class-data archive, 2), {@code startup.javaHome}
 * (the client's Java, default this JVM's), {@code startup.javaOpts} (added to the client's
 * {@code JAVA_OPTS}), {@code startup.home} (the distribution's folder). Writes {@code
 * target/startup/results.md}. Nothing here is a test: timings on a shared machine are
 * figures to read, not to assert.
 *
 * <p>vLLM's Python client cannot be installed on the machine this was written on; its
 * figures, measured earlier on the same VM class (2026-11, issue 38), are printed beside
 * ours: 0.82 s wall, 0.71 s CPU, 80 MB for the short run; 86, 99 and 152 MB at C = 64, 256
 * and 1,024.
 */
public final class StartupMemoryBenchmark {

  private static final Path DIR = Path.of("target", "startup");
  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
  private static final String MODEL = "startup-model";
  private static final Path TIME = Path.of("/usr/bin/time");

  /** vLLM's Python client, issue 38 (2026-11): wall s, CPU s, peak MB of the short run. */
  private static final double[] VLLM_SHORT = {0.82, 0.71, 80};
  /** vLLM's Python client's peak MB at C = 64, 256, 1,024 (issue 38, 2026-11). */
  private static final Map<Integer, Double> VLLM_PEAK_MB = Map.of(64, 86.0, 256, 99.0,
      1024, 152.0);

  /** One whole-process run: wall and CPU seconds, largest resident set in MB, exit status. */
  record Measure(double wallS, double cpuS, double peakMb, int status) {}

  private StartupMemoryBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(System.getProperty("startup.home", defaultHome()));
    Path launcher = home.resolve("bin/gatling-llm");
    if (!Files.isExecutable(launcher)) {
      System.err.println("no launcher at " + launcher + ": build it first with ./mvnw -B -o -q"
          + " -DskipTests -Dfuzz.skip=true -DskipPitest package");
      System.exit(2);
    }
    List<String> modes = List.of(System.getProperty("startup.modes", "short,memory")
        .split(","));
    int runs = Integer.getInteger("startup.runs", 5);
    int repeat = Integer.getInteger("startup.repeat", 1);
    List<Integer> rungs = Arrays.stream(System.getProperty("startup.rungs", "64,256,1024")
        .split(",")).map(String::trim).map(Integer::valueOf).toList();
    String javaHome = System.getProperty("startup.javaHome", System.getProperty("java.home"));
    String javaOpts = System.getProperty("startup.javaOpts", "");
    Files.createDirectories(DIR);

    StringBuilder md = new StringBuilder("# Start-up and memory (issue 38)\n\n");
    md.append("Launcher: ").append(launcher).append(", Java: ").append(javaHome)
        .append(javaOpts.isEmpty() ? "" : ", JAVA_OPTS " + javaOpts).append('\n');
    md.append("Measured with: ").append(Files.isExecutable(TIME) ? "/usr/bin/time"
        : "/proc sampled every 10 ms").append('\n');
    md.append("Load average at start: ").append(loadAverage()).append("\n\n");

    Process server = startServer(launcher, javaHome);
    try {
      String baseUrl = awaitListening(server);
      System.out.println("server: " + baseUrl);
      if (modes.contains("short")) {
        shortRuns(launcher, javaHome, javaOpts, baseUrl, runs, md);
      }
      if (modes.contains("memory")) {
        memoryRungs(launcher, javaHome, javaOpts, baseUrl, rungs, repeat, md);
      }
      if (modes.contains("floor")) {
        floorRuns(home, launcher, javaHome, javaOpts, baseUrl, runs, md);
      }
    } finally {
      server.descendants().forEach(ProcessHandle::destroy);
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    md.append("\nLoad average at end: ").append(loadAverage()).append('\n');
    Files.writeString(DIR.resolve("results.md"), md);
    System.out.println();
    System.out.println(md);
  }

  /** The 10-request benchmark: random 32 / 16 tokens, rate inf. */
  private static List<String> shortBench(String baseUrl) {
    return List.of("bench", "serve", "--model", MODEL, "--base-url", baseUrl,
        "--dataset-name", "random", "--random-input-len", "32", "--random-output-len", "16",
        "--num-prompts", "10", "--request-rate", "inf");
  }

  /** The short run, {@code runs} times: median and range of each figure. */
  private static void shortRuns(Path launcher, String javaHome, String javaOpts,
      String baseUrl, int runs, StringBuilder md) throws Exception {
    List<String> bench = shortBench(baseUrl);
    // bin/gatling-llm makes its class-data archive in its first runs (Java 17: the first
    // lists the classes, the second dumps the archive; Java 19+: the first dumps it at exit):
    // those are reported apart, as what a new install or a new Java pays once
    List<Measure> first = new ArrayList<>();
    for (int i = 0; i < Integer.getInteger("startup.prime", 2); i++) {
      Measure m = measure(launcher, javaHome, javaOpts, bench, List.of(), "first-" + i);
      System.out.printf(Locale.ROOT, "first run %d: %.2f s wall, %.2f s CPU, %.0f MB, exit %d%n",
          i + 1, m.wallS(), m.cpuS(), m.peakMb(), m.status());
      first.add(m);
    }
    List<Measure> measures = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Measure m = measure(launcher, javaHome, javaOpts, bench, List.of(), "short-" + i);
      System.out.printf(Locale.ROOT, "short run %d: %.2f s wall, %.2f s CPU, %.0f MB, exit %d%n",
          i + 1, m.wallS(), m.cpuS(), m.peakMb(), m.status());
      measures.add(m);
    }
    md.append("## The 10-request run (random 32 / 16 tokens, rate inf), ").append(runs)
        .append(" runs\n\n");
    md.append("| | wall s | CPU s | peak resident MB |\n|---|---:|---:|---:|\n");
    md.append("| gatling-llm launcher, median (range) | ")
        .append(summary(measures, Measure::wallS, 2)).append(" | ")
        .append(summary(measures, Measure::cpuS, 2)).append(" | ")
        .append(summary(measures, Measure::peakMb, 0)).append(" |\n");
    md.append(String.format(Locale.ROOT,
        "| vLLM's Python client (issue 38, 2026-11) | %.2f | %.2f | %.0f |%n",
        VLLM_SHORT[0], VLLM_SHORT[1], VLLM_SHORT[2]));
    md.append(String.format(Locale.ROOT, "| ratio of medians | %.1f x | %.1f x | %.1f x |%n%n",
        median(measures, Measure::wallS) / VLLM_SHORT[0],
        median(measures, Measure::cpuS) / VLLM_SHORT[1],
        median(measures, Measure::peakMb) / VLLM_SHORT[2]));
    for (int i = 0; i < first.size(); i++) {
      Measure m = first.get(i);
      md.append(String.format(Locale.ROOT, "First run %d (the class-data archive in the"
          + " making, not in the medians): %.2f s wall, %.2f s CPU, %.0f MB%n%n", i + 1,
          m.wallS(), m.cpuS(), m.peakMb()));
    }
    md.append("Exit statuses: ").append(measures.stream().map(m -> "" + m.status()).toList())
        .append("\n\n");
    countRun(launcher, javaHome, javaOpts, bench, md);
  }

  /**
   * One more short run, without the class-data archive, that counts what the run loads and
   * compiles: figures the machine's load does not move, where wall and CPU time do.
   */
  private static void countRun(Path launcher, String javaHome, String javaOpts,
      List<String> bench, StringBuilder md) throws Exception {
    Path classes = DIR.resolve("classes.txt").toAbsolutePath();
    Path compiled = DIR.resolve("compilation.log").toAbsolutePath();
    String counting = (javaOpts + " -Xlog:class+load:file=" + classes
        + " -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=" + compiled).trim();
    Measure m = measure(launcher, javaHome, counting, bench, List.of(), "count",
        Map.of("GATLING_LLM_CDS", "off"));
    long loaded;
    try (var lines = Files.lines(classes)) {
      loaded = lines.count();
    }
    long methods;
    try (var lines = Files.lines(compiled)) {
      methods = lines.filter(l -> l.startsWith("<nmethod")).count();
    }
    System.out.printf(Locale.ROOT, "counted run: %d classes loaded, %d methods compiled%n",
        loaded, methods);
    md.append(String.format(Locale.ROOT, "Counted run (no class-data archive, exit %d): %,d"
        + " classes loaded, %,d methods compiled, %.0f MB peak resident%n%n", m.status(),
        loaded, methods, m.peakMb()));
  }

  /**
   * The floor under a short run: a JVM with the launcher's settings and class path that holds
   * what a short run loads and does nothing with it ({@link ClassFloor}): alone, with the
   * run's classes loaded, and with them initialised, each {@code runs} times, without a
   * class-data archive beyond the JDK's own (a user's first start) and, where the launcher
   * has made one, with its archive.
   */
  private static void floorRuns(Path home, Path launcher, String javaHome, String javaOpts,
      String baseUrl, int runs, StringBuilder md) throws Exception {
    Path list = DIR.resolve("run.classlist").toAbsolutePath();
    Files.deleteIfExists(list);
    List<String> bench = shortBench(baseUrl);
    Measure listed = measure(launcher, javaHome,
        (javaOpts + " -XX:DumpLoadedClassList=" + list).trim(), bench, List.of(), "floor-list",
        Map.of("GATLING_LLM_CDS", "off"));
    if (listed.status() != 0 || !Files.exists(list)) {
      md.append("## The floor\n\nThe listing run failed (exit ").append(listed.status())
          .append("): no floor.\n\n");
      return;
    }
    Path archive = newestArchive(home);
    List<String> jvm = new ArrayList<>(List.of(Path.of(javaHome, "bin", "java").toString(),
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"));
    jvm.addAll(JvmSettings.jvmArgs());
    if (!javaOpts.isEmpty()) {
      jvm.addAll(Arrays.asList(javaOpts.trim().split("\\s+")));
    }
    String classPath = home.toAbsolutePath().resolve("lib") + "/*" + File.pathSeparator
        + Path.of("target", "test-classes").toAbsolutePath();
    md.append("## The floor: a JVM that holds a short run's classes and does nothing\n\n");
    md.append("The launcher's settings and class path, main `ClassFloor`; the classes from a"
        + " short run's `-XX:DumpLoadedClassList` (generated ones left out). ").append(runs)
        .append(" runs each, median (range).\n\n");
    md.append("| | class-data archive | wall s | CPU s | peak resident MB |\n"
        + "|---|---|---:|---:|---:|\n");
    List<String> archives = new ArrayList<>(List.of("JDK's only"));
    if (archive != null) {
      archives.add("the launcher's");
    }
    for (String which : archives) {
      for (String[] what : new String[][] {{"the JVM alone", "-", ""},
          {"the run's classes loaded", list.toString(), "load"},
          {"the run's classes initialised", list.toString(), "init"}}) {
        List<Measure> measures = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
          List<String> command = new ArrayList<>(jvm);
          if (which.equals("the launcher's")) {
            command.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off"));
          }
          command.addAll(List.of("-cp", classPath, ClassFloor.class.getName(), what[1]));
          if (!what[2].isEmpty()) {
            command.add(what[2]);
          }
          measures.add(measureCommand(command, javaHome, "floor-" + i));
        }
        md.append("| ").append(what[0]).append(" | ").append(which).append(" | ")
            .append(summary(measures, Measure::wallS, 2)).append(" | ")
            .append(summary(measures, Measure::cpuS, 2)).append(" | ")
            .append(summary(measures, Measure::peakMb, 0)).append(" |\n");
        System.out.println("floor: " + what[0] + ", " + which + ": CPU "
            + summary(measures, Measure::cpuS, 2) + " s, "
            + summary(measures, Measure::peakMb, 0) + " MB");
      }
    }
    md.append(String.format(Locale.ROOT, "| vLLM's Python client, the whole short run (issue 38,"
        + " 2026-11) | | %.2f | %.2f | %.0f |%n%n", VLLM_SHORT[0], VLLM_SHORT[1],
        VLLM_SHORT[2]));
  }

  /** The launcher's newest class-data archive, in its {@code cds/} or the user's cache. */
  private static Path newestArchive(Path home) throws IOException {
    List<Path> dirs = List.of(home.resolve("cds"),
        Path.of(System.getProperty("user.home"), ".cache", "gatling-llm", "cds"));
    Path newest = null;
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (var files = Files.list(dir)) {
        for (Path f : files.filter(f -> f.toString().endsWith(".jsa")).toList()) {
          if (newest == null || Files.getLastModifiedTime(f)
              .compareTo(Files.getLastModifiedTime(newest)) > 0) {
            newest = f;
          }
        }
      }
    }
    return newest == null ? null : newest.toAbsolutePath();
  }

  /** One whole process of {@code command}, under {@code /usr/bin/time}. */
  private static Measure measureCommand(List<String> command, String javaHome, String name)
      throws Exception {
    if (!Files.isExecutable(TIME)) {
      throw new IllegalStateException("the floor needs /usr/bin/time");
    }
    Path times = DIR.resolve(name + ".time").toAbsolutePath();
    List<String> timed = new ArrayList<>(List.of(TIME.toString(), "-o", times.toString(), "-f",
        "%e %U %S %M"));
    timed.addAll(command);
    ProcessBuilder builder = new ProcessBuilder(timed).redirectErrorStream(true)
        .redirectOutput(DIR.resolve(name + ".out").toFile());
    builder.environment().put("JAVA_HOME", javaHome);
    int status = builder.start().waitFor();
    return timed(times, status);
  }

  /** The figures {@code /usr/bin/time -f "%e %U %S %M"} wrote: its last line of numbers. */
  private static Measure timed(Path times, int status) throws IOException {
    String[] f = Files.readAllLines(times).stream().filter(l -> l.matches("[0-9. ]+"))
        .reduce((a, b) -> b).orElseThrow().trim().split(" ");
    return new Measure(Double.parseDouble(f[0]),
        Double.parseDouble(f[1]) + Double.parseDouble(f[2]), Double.parseDouble(f[3]) / 1024,
        status);
  }

  /** The head-to-head's rungs, the client pinned to one core: its largest resident set. */
  private static void memoryRungs(Path launcher, String javaHome, String javaOpts,
      String baseUrl, List<Integer> rungs, int repeat, StringBuilder md) throws Exception {
    List<String> pin = pinned() ? List.of("taskset", "-c", "1") : List.of();
    md.append("## Peak resident set, client pinned to one core").append(pin.isEmpty()
        ? " (taskset not found: NOT pinned)" : " (taskset -c 1)").append('\n');
    md.append("\nRate inf, max concurrency C, N = 4C, 64 / 128 tokens, ITL 10 ms,"
        + " --num-warmups auto.\n\n");
    md.append("| C | peak resident MB | wall s | CPU s | exit | vLLM's client MB (2026-11) |\n");
    md.append("|---:|---:|---:|---:|---:|---:|\n");
    for (int c : rungs) {
      for (int r = 0; r < repeat; r++) {
        List<String> bench = List.of("bench", "serve", "--model", MODEL, "--base-url", baseUrl,
            "--dataset-name", "random", "--random-input-len", "64", "--random-output-len",
            "128", "--ignore-eos", "--num-prompts", Integer.toString(4 * c),
            "--max-concurrency", Integer.toString(c), "--request-rate", "inf",
            "--num-warmups", "auto");
        Measure m = measure(launcher, javaHome, javaOpts, bench, pin, "c" + c + "-" + r);
        System.out.printf(Locale.ROOT, "C=%d: %.0f MB, %.2f s wall, %.2f s CPU, exit %d%n",
            c, m.peakMb(), m.wallS(), m.cpuS(), m.status());
        Double vllm = VLLM_PEAK_MB.get(c);
        md.append(String.format(Locale.ROOT, "| %d | %.0f | %.2f | %.2f | %d | %s |%n", c,
            m.peakMb(), m.wallS(), m.cpuS(), m.status(),
            vllm == null ? "-" : String.format(Locale.ROOT, "%.0f", vllm)));
      }
    }
  }

  /**
   * One whole process of the launcher: under {@code /usr/bin/time} where installed (the
   * kernel's figures for the process and its children), else sampled from {@code /proc}.
   */
  static Measure measure(Path launcher, String javaHome, String javaOpts, List<String> bench,
      List<String> prefix, String name) throws Exception {
    return measure(launcher, javaHome, javaOpts, bench, prefix, name, Map.of());
  }

  private static Measure measure(Path launcher, String javaHome, String javaOpts,
      List<String> bench, List<String> prefix, String name, Map<String, String> env)
      throws Exception {
    Path out = DIR.resolve(name + ".out");
    Path times = DIR.resolve(name + ".time");
    Path runDir = DIR.resolve("runs").toAbsolutePath();
    Files.createDirectories(runDir);
    List<String> command = new ArrayList<>(prefix);
    boolean timed = Files.isExecutable(TIME);
    if (timed) {
      command.addAll(List.of(TIME.toString(), "-o", times.toAbsolutePath().toString(), "-f",
          "%e %U %S %M"));
    }
    command.add(launcher.toAbsolutePath().toString());
    command.addAll(bench);
    ProcessBuilder builder = new ProcessBuilder(command).directory(runDir.toFile())
        .redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().put("JAVA_HOME", javaHome);
    if (!javaOpts.isEmpty()) {
      builder.environment().put("JAVA_OPTS", javaOpts);
    }
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process process = builder.start();
    ProcSampler sampler = timed ? null : new ProcSampler(process.toHandle());
    if (sampler != null) {
      sampler.start();
    }
    int status = process.waitFor();
    double wall = (System.nanoTime() - start) / 1e9;
    if (timed) {
      return timed(times, status);
    }
    sampler.interrupt();
    sampler.join();
    return new Measure(wall, sampler.cpuS, sampler.peakKb / 1024.0, status);
  }

  /** The largest VmHWM and CPU time of a process and its descendants, every 10 ms. */
  private static final class ProcSampler extends Thread {
    private final ProcessHandle root;
    private volatile double cpuS;
    private volatile long peakKb;

    ProcSampler(ProcessHandle root) {
      this.root = root;
      setDaemon(true);
    }

    @Override
    public void run() {
      while (root.isAlive() && !isInterrupted()) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        all.add(root);
        double cpu = 0;
        for (ProcessHandle p : all) {
          peakKb = Math.max(peakKb, hwmKb(p.pid()));
          cpu += cpuSeconds(p.pid());
        }
        cpuS = Math.max(cpuS, cpu);
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  static long hwmKb(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process ended between two reads
    }
    return 0;
  }

  static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static Process startServer(Path launcher, String javaHome) throws IOException {
    List<String> command = new ArrayList<>();
    if (pinned()) {
      command.addAll(List.of("taskset", "-c", "0"));
    }
    command.addAll(List.of(launcher.toAbsolutePath().toString(), "sim", "--port", "0",
        "--model", MODEL, "--ttft-ms", "50", "--itl-ms", "10", "--max-running", "4096"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("JAVA_HOME", javaHome);
    return builder.start();
  }

  private static String awaitListening(Process server) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(server.getInputStream(),
        StandardCharsets.UTF_8));
    for (String line; (line = reader.readLine()) != null; ) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread drain = new Thread(() -> {
          try {
            while (reader.readLine() != null) {
              // keep the server's pipe from filling
            }
          } catch (IOException e) {
            // the server ended
          }
        });
        drain.setDaemon(true);
        drain.start();
        return m.group(1);
      }
    }
    throw new IllegalStateException("the simulator ended before it listened");
  }

  private static boolean pinned() {
    return Runtime.getRuntime().availableProcessors() >= 2
        && Files.isExecutable(Path.of("/usr/bin/taskset"));
  }

  private static String defaultHome() {
    try (var dirs = Files.list(Path.of("target"))) {
      return dirs.filter(p -> p.getFileName().toString().matches("gatling-llm-[0-9].*"))
          .filter(Files::isDirectory).findFirst().map(Path::toString)
          .orElse("target/gatling-llm");
    } catch (IOException e) {
      return "target/gatling-llm";
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  interface Figure {
    double of(Measure m);
  }

  static double median(List<Measure> measures, Figure figure) {
    double[] v = measures.stream().mapToDouble(figure::of).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** "4.12 (3.90-5.01)". */
  static String summary(List<Measure> measures, Figure figure, int decimals) {
    double[] v = measures.stream().mapToDouble(figure::of).sorted().toArray();
    String f = "%." + decimals + "f";
    return String.format(Locale.ROOT, f + " (" + f + "-" + f + ")", median(measures, figure),
        v[0], v[v.length - 1]);
  }
}
