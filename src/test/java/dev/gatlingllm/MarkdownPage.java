package dev.gatlingllm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Markdown page of the README or docs/, read as GitHub renders it: its headings (outside
 * fenced code, where a {@code #} line is a shell comment), their anchors, and the text of a
 * section. The tests that hold the pages to the code and the link check both read pages
 * through it, so that a section is found by its heading wherever the page puts it.
 */
final class MarkdownPage {

  /** The README, then docs/*.md in name order: every page of the manual. */
  static List<Path> manual() {
    List<Path> pages = new ArrayList<>();
    pages.add(Path.of("README.md"));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~)");
  private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

  /** A heading: its level, its text as written, its anchor and the line after it. */
  record Heading(int level, String text, String anchor, int line) { }

  final Path path;
  final List<String> lines;
  final List<Heading> headings = new ArrayList<>();
  /** Per line: whether it is inside (or opens or closes) a fenced code block. */
  final boolean[] code;

  MarkdownPage(Path path) throws IOException {
    this(path, Files.readString(path));
  }

  MarkdownPage(Path path, String text) {
    this.path = path;
    this.lines = text.lines().toList();
    this.code = new boolean[lines.size()];
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (FENCE.matcher(line).find()) {
        code[i] = true;
        fenced = !fenced;
        continue;
      }
      code[i] = fenced;
      if (fenced) {
        continue;
      }
      Matcher m = HEADING.matcher(line);
      if (m.matches()) {
        String anchor = anchor(m.group(2));
        int n = seen.merge(anchor, 1, Integer::sum);
        headings.add(new Heading(m.group(1).length(), m.group(2),
            n == 1 ? anchor : anchor + "-" + (n - 1), i + 1));
      }
    }
  }

  /**
   * GitHub's anchor for a heading: the text as rendered (links reduced to their text, HTML
   * tags dropped), lowercased, every character but letters, digits, marks, '_', '-' and
   * spaces dropped, and each space a '-'. A repeated anchor gets "-1", "-2", ... on the page.
   */
  static String anchor(String heading) {
    String text = INLINE_LINK.matcher(heading).replaceAll("$1").replaceAll("<[^>]*>", "");
    return text.toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
        .replace(' ', '-');
  }

  Set<String> anchors() {
    Set<String> anchors = new LinkedHashSet<>();
    headings.forEach(h -> anchors.add(h.anchor()));
    return anchors;
  }

  /**
   * The section under the heading written exactly {@code heading} ("## Flags"): from it to the
   * next heading of the same or a higher level, its sub-sections included.
   *
   * @throws AssertionError when the page has no such heading
   */
  String section(String heading) {
    for (int k = 0; k < headings.size(); k++) {
      Heading h = headings.get(k);
      if (lines.get(h.line() - 1).strip().equals(heading)) {
        int end = lines.size();
        for (int j = k + 1; j < headings.size(); j++) {
          if (headings.get(j).level() <= h.level()) {
            end = headings.get(j).line() - 1;
            break;
          }
        }
        return String.join("\n", lines.subList(h.line() - 1, end)) + "\n";
      }
    }
    throw new AssertionError(path + " has no section " + heading + "; its headings: "
        + headings.stream().map(Heading::text).toList());
  }
}
