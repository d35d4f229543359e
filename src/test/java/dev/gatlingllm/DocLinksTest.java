package dev.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file exists, and a
 * {@code #anchor} is a heading of the page it names, by GitHub's anchor rules. Links inside
 * code (fenced blocks, backtick spans) are text, not links; web addresses are not followed.
 * Headings move when the manual is reorganised and get renamed when they are dated, so a
 * link that reads well can lead nowhere; this test is what notices.
 */
class DocLinksTest {

  /** {@code [text](target)} and {@code ![alt](target)}; the target has no blank. */
  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("(?s)``.*?``|`[^`]*`");

  @Test
  void everyRelativeLinkAndAnchorOfTheManualResolves() throws IOException {
    List<Path> pages = MarkdownPage.manual();
    assertTrue(pages.size() >= 15, "the manual's pages: " + pages);
    List<String> broken = broken(pages);
    assertEquals(List.of(), broken, "links that lead nowhere");
  }

  /** The checker itself: a missing file, a missing anchor and a good link, on a made-up page. */
  @Test
  void aLinkToAMissingFileOrHeadingIsReported(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("a.md"), "# A page\n\n## The JVM `gatling:test` runs in\n\n"
        + "## Gatling's injector at 1,000 req/s\n\n## Twice\n\n## Twice\n\n"
        + "[ok](#the-jvm-gatlingtest-runs-in) [ok](#gatlings-injector-at-1000-reqs) "
        + "[ok](b.md#request-options-completionsname-chatname) [ok](#twice-1) "
        + "[ok](https://example.com/#nothing) `[code](nowhere.md)`\n\n"
        + "```\n[in a block](nowhere.md)\n# a shell comment, not a heading\n```\n\n"
        + "[bad](missing.md) [bad](b.md#no-such-heading) [bad](#the-jvm-gatling-test-runs-in) "
        + "[bad](#a-shell-comment-not-a-heading) [bad](#twice-2) [bad, a text over\ntwo "
        + "lines](#nowhere) `` a ` span `` [bad](#after-a-span)\n");
    Files.writeString(dir.resolve("b.md"),
        "# B\n\n### Request options (`completions(name)`, `chat(name)`)\n");
    List<String> broken = broken(List.of(dir.resolve("a.md"), dir.resolve("b.md")));
    assertEquals(7, broken.size(), String.join("\n", broken));
    assertTrue(broken.get(0).contains("missing.md"), broken.get(0));
    assertTrue(broken.get(1).contains("b.md#no-such-heading"), broken.get(1));
  }

  @Test
  void anchorsFollowGitHubsRules() {
    assertEquals("the-users-path-2026-11-27", MarkdownPage.anchor("The user's path (2026-11-27)"));
    assertEquals("repeated-runs---num-runs", MarkdownPage.anchor("Repeated runs (`--num-runs`)"));
    assertEquals("the-profile-in-a-simulation",
        MarkdownPage.anchor("The profile in a [simulation](dsl.md)"));
    assertEquals("différences-from-vllm", MarkdownPage.anchor("Différences from vLLM"));
  }

  private static final Pattern WORK_COUNTER =
      Pattern.compile("(?i)\\b(session|turn|round|iteration|sprint)s?\\s+\\d+");

  /**
   * A heading is dated by a version or a date, never by a counter of the work that wrote it
   * ("session 15"): readers know neither the counter nor when it ran, and a link to such a
   * heading breaks when the next session renames it.
   */
  @Test
  void noHeadingIsDatedByAWorkCounter() throws IOException {
    List<Path> pages = new ArrayList<>(MarkdownPage.manual());
    pages.add(Path.of("CHANGELOG.md"));
    List<String> dated = new ArrayList<>();
    for (Path page : pages) {
      for (MarkdownPage.Heading h : new MarkdownPage(page).headings) {
        if (WORK_COUNTER.matcher(h.text()).find()) {
          dated.add(page + ":" + h.line() + ": " + h.text());
        }
      }
    }
    assertEquals(List.of(), dated, "date these headings by their version or day (CHANGELOG, "
        + "git log) and fix the links to them");
    assertTrue(WORK_COUNTER.matcher("The user's path (session 15)").find());
    assertTrue(!WORK_COUNTER.matcher("The user's path (2026-11-27)").find());
  }

  /** The links of {@code pages} that lead nowhere, each as "page:line: target (why)". */
  static List<String> broken(List<Path> pages) throws IOException {
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      MarkdownPage md = new MarkdownPage(page);
      // the page's prose, code blocks blanked, so that a link text may span lines
      StringBuilder prose = new StringBuilder();
      for (int i = 0; i < md.lines.size(); i++) {
        prose.append(md.code[i] ? "" : md.lines.get(i)).append('\n');
      }
      String text = CODE_SPAN.matcher(prose).replaceAll(span -> span.group().replaceAll("[^\n]", " "));
      Matcher m = LINK.matcher(text);
      {
        while (m.find()) {
          int i = (int) text.substring(0, m.start(1)).chars().filter(c -> c == '\n').count();
          String target = m.group(1);
          if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
            continue;   // https:, mailto:, file: ...
          }
          int hash = target.indexOf('#');
          String file = hash < 0 ? target : target.substring(0, hash);
          String anchor = hash < 0 ? null : target.substring(hash + 1);
          Path dest = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file)
              .normalize();
          String where = page + ":" + (i + 1) + ": " + target;
          if (!Files.exists(dest)) {
            broken.add(where + " (no such file)");
            continue;
          }
          if (anchor == null || !dest.toString().endsWith(".md")) {
            continue;
          }
          Set<String> known = anchors.computeIfAbsent(dest.toAbsolutePath().normalize(), p -> {
            try {
              return new MarkdownPage(p).anchors();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
          if (!known.contains(anchor)) {
            broken.add(where + " (no heading with that anchor)");
          }
        }
      }
    }
    return broken;
  }
}
