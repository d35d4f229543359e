package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium (Debian's {@code chromium} package) opening a page with the network cut
 * off: every host resolves to nothing and every request goes to a proxy that is not there.
 * A page of ours writes its own verdict (errors, painted pixels of each chart) into
 * {@code #llm-verdict}; {@link #open} reads it from the DOM Chromium dumps.
 */
public final class Chromium {

  private static final Pattern VERDICT =
      Pattern.compile("<pre id=\"llm-verdict\"[^>]*>(.*?)</pre>", Pattern.DOTALL);

  private final Path binary;

  private Chromium(Path binary) {
    this.binary = binary;
  }

  /** The installed Chromium: {@code $CHROMIUM}, else the usual names on the PATH. */
  public static Optional<Chromium> find() {
    List<String> names = new ArrayList<>();
    String env = System.getenv("CHROMIUM");
    if (env != null && !env.isBlank()) {
      names.add(env);
    }
    names.addAll(List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"));
    for (String name : names) {
      Path direct = Path.of(name);
      if (direct.isAbsolute() && Files.isExecutable(direct)) {
        return Optional.of(new Chromium(direct));
      }
      for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(new Chromium(candidate));
        }
      }
    }
    return Optional.empty();
  }

  /** What a page said about itself, and how long Chromium took from start to exit. */
  public record Verdict(JsonNode json, long wallMillis) {

    public boolean ok() {
      return json.path("ok").asBoolean(false);
    }
  }

  /** Opens {@code page}, lets it render, and reads its verdict. */
  public Verdict open(Path page, int width, int height) throws IOException, InterruptedException {
    Result r = run(page, width, height, "--dump-dom");
    Matcher m = VERDICT.matcher(r.out);
    if (!m.find()) {
      throw new AssertionError("no verdict in the page Chromium dumped (exit " + r.exit + "):\n"
          + tail(r.out) + "\n" + tail(r.err));
    }
    String text = m.group(1).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">")
        .replace("&amp;", "&");
    return new Verdict(new ObjectMapper().readTree(text), r.wallMillis);
  }

  /** A PNG of the page at this window size. */
  public void screenshot(Path page, Path png, int width, int height)
      throws IOException, InterruptedException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    Result r = run(page, width, height, "--screenshot=" + png.toAbsolutePath(),
        "--hide-scrollbars");
    if (!Files.isRegularFile(png) || Files.size(png) == 0) {
      throw new AssertionError("no screenshot written (exit " + r.exit + "): " + tail(r.err));
    }
  }

  private record Result(int exit, String out, String err, long wallMillis) {}

  private Result run(Path page, int width, int height, String... extra)
      throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile");
    Path out = Files.createTempFile("chromium", ".out");
    Path err = Files.createTempFile("chromium", ".err");
    try {
      List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox",
          "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
          "--disable-background-networking", "--disable-extensions", "--disable-sync",
          "--user-data-dir=" + profile,
          // the network, cut off: no name resolves and every request goes to a dead proxy
          "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
          "--proxy-bypass-list=<-loopback>",
          "--window-size=" + width + "," + height, "--virtual-time-budget=10000"));
      cmd.addAll(List.of(extra));
      cmd.add(page.toAbsolutePath().toUri().toString());
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
          .start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("Chromium did not finish within 120 s");
      }
      long wall = (System.nanoTime() - t0) / 1_000_000;
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8), wall);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      deleteTree(profile);
    }
  }

  private static String tail(String s) {
    return s.length() <= 3000 ? s : s.substring(s.length() - 3000);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
