package dev.gatlingllm.internal.report;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * One of our pages opened in Debian's Chromium through Playwright, and what a reader would
 * stumble on in it, measured in the rendered page: elements wider than their container, chart
 * texts drawn over each other, charts without a data point, console errors and requests that
 * try to leave the page. Playwright never downloads a browser here: it drives the installed
 * one ({@code PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD}); every request but the page's own file is
 * aborted and counted.
 */
public final class PageLayout implements AutoCloseable {

  /** Chromium's flags for a headless run in a container, without a network of its own. */
  static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu",
      "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking");

  private final Playwright playwright;
  private final Browser browser;

  private PageLayout(Path chromium) {
    playwright = Playwright.create(new Playwright.CreateOptions()
        .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
        .setExecutablePath(chromium).setHeadless(true).setArgs(FLAGS));
  }

  /** Debian's Chromium ({@code $CHROMIUM}, else /usr/bin/chromium, else on the PATH). */
  public static Optional<Path> chromium() {
    List<String> names = new ArrayList<>();
    String env = System.getenv("CHROMIUM");
    if (env != null && !env.isBlank()) {
      names.add(env);
    }
    names.addAll(List.of("/usr/bin/chromium", "chromium", "chromium-browser"));
    for (String name : names) {
      Path direct = Path.of(name);
      if (direct.isAbsolute()) {
        if (Files.isExecutable(direct)) {
          return Optional.of(direct);
        }
        continue;
      }
      for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The Chromium to open pages in; without one the calling test is skipped, saying so and what
   * was therefore {@code notChecked}.
   */
  public static Path chromiumOrSkip(String notChecked) {
    Optional<Path> found = chromium();
    Assumptions.assumeTrue(found.isPresent(), "SKIPPED: no Chromium installed (apt-get "
        + "install chromium, or set CHROMIUM=/path/to/chromium): " + notChecked);
    return found.get();
  }

  public static PageLayout start(Path chromium) {
    return new PageLayout(chromium);
  }

  /** What a reader would stumble on in one page at one width. */
  public record Findings(List<String> errors, List<String> requests, List<String> overflows,
      List<String> overlaps, List<String> emptyCharts, int charts, int labels, long millis) {

    /** Every problem, one a line; empty when the page is fine. */
    public List<String> problems() {
      List<String> out = new ArrayList<>();
      errors.forEach(e -> out.add("console error: " + e));
      requests.forEach(r -> out.add("request leaving the page: " + r));
      overflows.forEach(o -> out.add("wider than its container: " + o));
      overlaps.forEach(o -> out.add("labels overlap: " + o));
      emptyCharts.forEach(c -> out.add("chart without a data point: " + c));
      return out;
    }
  }

  /**
   * Opens {@code page} at {@code width} px, measures it and, when {@code screenshot} is not
   * null, saves the whole page there as PNG. {@code tamper}, when not null, is script run
   * before measuring (to show that a broken layout is caught).
   */
  public Findings inspect(Path page, int width, Path screenshot, String tamper) {
    long t0 = System.nanoTime();
    List<String> errors = new ArrayList<>();
    List<String> requests = new ArrayList<>();
    String own = page.toAbsolutePath().toUri().toString();
    try (var context = browser.newContext(new Browser.NewContextOptions()
        .setViewportSize(width, 900).setOffline(true))) {
      context.route("**/*", route -> {
        String url = route.request().url();
        if (url.equals(own) || url.startsWith("data:") || url.startsWith("blob:")) {
          route.resume();
        } else {
          requests.add(url);
          route.abort();
        }
      });
      Page p = context.newPage();
      p.onConsoleMessage(m -> {
        if ("error".equals(m.type())) {
          errors.add(m.text());
        }
      });
      p.onPageError(errors::add);
      p.onRequestFailed(r -> {
        if (!requests.contains(r.url()) && !r.url().equals(own)) {
          requests.add(r.url());
        }
      });
      p.navigate(own);
      p.waitForFunction("document.documentElement.hasAttribute('data-verdict')");
      if (tamper != null) {
        p.evaluate(tamper);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) p.evaluate(MEASURE);
      if (screenshot != null) {
        p.screenshot(new Page.ScreenshotOptions().setPath(screenshot).setFullPage(true));
      }
      @SuppressWarnings("unchecked")
      Findings f = new Findings(errors, requests, (List<String>) m.get("overflows"),
          (List<String>) m.get("overlaps"), (List<String>) m.get("empty"),
          ((Number) m.get("charts")).intValue(), ((Number) m.get("labels")).intValue(),
          (System.nanoTime() - t0) / 1_000_000);
      return f;
    }
  }

  /** The visible text of the first element matching {@code selector}, "" when none does. */
  public String text(Path page, String selector) {
    try (var context = browser.newContext(new Browser.NewContextOptions().setOffline(true))) {
      Page p = context.newPage();
      p.navigate(page.toAbsolutePath().toUri().toString());
      p.waitForFunction("document.documentElement.hasAttribute('data-verdict')");
      return (String) p.evaluate("s => { const e = document.querySelector(s); return e ? e.innerText : ''; }",
          selector);
    }
  }

  /**
   * The measurement, in the page: every table, chart, section and the page itself against its
   * own box and its container's; every pair of visible texts of one chart (ECharts draws SVG
   * here, so its texts have boxes); every chart's data points.
   */
  private static final String MEASURE = """
      () => {
        const name = e => e.id ? '#' + e.id : e.tagName.toLowerCase()
            + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '')
            + (e.closest('section') ? ' in "' + (e.closest('section').querySelector('h2') || {}).textContent + '"' : '');
        const overflows = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > doc.clientWidth + 1) {
          overflows.push('the page (' + doc.scrollWidth + ' px > ' + doc.clientWidth + ' px)');
        }
        document.querySelectorAll('main, section, table, .tables, .grid, .chart, [data-chart], td, th, .banner, p').forEach(e => {
          if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline') {
            overflows.push(name(e) + ' (' + e.scrollWidth + ' px > ' + e.clientWidth + ' px)');
            return;
          }
          const parent = e.parentElement;
          if (!parent || e.tagName === 'TD' || e.tagName === 'TH') { return; }
          const r = e.getBoundingClientRect(), pr = parent.getBoundingClientRect();
          const cs = getComputedStyle(parent);
          const right = pr.right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
          if (r.width > 0 && r.right > right + 1) {
            overflows.push(name(e) + ' ends ' + Math.round(r.right - right) + ' px past ' + name(parent));
          }
        });
        const overlaps = [], empty = [];
        let labels = 0;
        const charts = document.querySelectorAll('[data-chart]');
        charts.forEach(box => {
          const texts = [...box.querySelectorAll('svg text')].filter(t => {
            const s = getComputedStyle(t);
            return t.textContent.trim() && s.display !== 'none' && s.visibility !== 'hidden'
                && +(t.getAttribute('opacity') ?? 1) > 0 && +(t.getAttribute('fill-opacity') ?? 1) > 0;
          }).map(t => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }))
            .filter(t => t.r.width > 0 && t.r.height > 0);
          labels += texts.length;
          for (let i = 0; i < texts.length; i++) {
            for (let j = i + 1; j < texts.length; j++) {
              const a = texts[i].r, b = texts[j].r;
              const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
              if (w > 1 && h > 2) {
                overlaps.push(box.id + ': "' + texts[i].text + '" and "' + texts[j].text + '"');
              }
            }
          }
          let points = 0;
          const chart = window.echarts && echarts.getInstanceByDom(box);
          if (chart) {
            (chart.getOption().series || []).forEach(s => (s.data || []).forEach(d => {
              const v = Array.isArray(d) ? d[d.length - 1] : d && typeof d === 'object' ? d.value : d;
              if (v !== null && v !== undefined && !Number.isNaN(v)) { points++; }
            }));
          } else {
            points = box.querySelectorAll('canvas').length ? +(box.getAttribute('data-points') || 0) : 0;
          }
          if (!points) { empty.push(box.id); }
        });
        return { overflows, overlaps, empty, charts: charts.length, labels };
      }
      """;

  @Override
  public void close() {
    browser.close();
    playwright.close();
  }
}
