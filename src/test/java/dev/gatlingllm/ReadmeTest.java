package dev.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.internal.cli.FlagChoices;
import dev.gatlingllm.launcher.GatlingLlm;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the README and the docs/ pages state about the code, checked against the code, in the
 * page that holds each statement now: the README is the front page, the manual is docs/.
 */
class ReadmeTest {

  private static final Path README = Path.of("README.md");
  private static final Pattern TABLE_METHOD = Pattern.compile("(?m)^\\| `(\\w+)\\(");

  private static String section(String page, String heading) throws IOException {
    return new MarkdownPage(Path.of(page)).section(heading);
  }

  @Test
  void protocolOptionsTableListsEveryOptionOfTheBuilder() throws IOException {
    Set<String> listed = new TreeSet<>();
    Matcher m = TABLE_METHOD.matcher(section("docs/dsl.md", "## Protocol options (`llm()`)"));
    while (m.find()) {
      listed.add(m.group(1));
    }
    Set<String> options = Arrays.stream(LlmProtocolBuilder.class.getDeclaredMethods())
        .filter(method -> Modifier.isPublic(method.getModifiers()))
        .map(Method::getName)
        .filter(name -> !name.equals("protocol"))   // Gatling's side of the builder
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(options, listed);
  }

  @Test
  void datasetsTableHasARowPerDatasetAndNamesEveryFlag() throws IOException {
    String datasets = section("docs/datasets.md", "## Every dataset at a glance");
    Set<String> rows = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^\\| `(\\w[\\w-]*)`").matcher(datasets);
    while (m.find()) {
      rows.add(m.group(1));
    }
    assertEquals(new TreeSet<>(Datasets.NAMES), rows);
    Set<String> missing = Datasets.FLAGS.stream()
        .filter(flag -> !datasets.contains("`--" + flag + "`"))
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of(), missing, "dataset flags docs/datasets.md does not name");
  }

  @Test
  void howEarlyUsersArriveIsStatedAsTheInjectionPlanDoesIt() throws IOException {
    InjectionPlan plan = InjectionPlan.of(
        ArrivalSchedule.compute(ArrivalProfile.builder().numPrompts(10).requestRate(5).build()));
    double lead = plan.lead().toMillis() / 1000.0;
    double latest = lead + 2 * plan.bucket().toMillis() / 1000.0;
    String arrivals = section("docs/arrivals.md", "## The profile in a simulation");
    assertTrue(arrivals.contains("between " + lead + " s and " + latest + " s before"),
        "the arrival section states the plan's " + lead + "-" + latest + " s lead");
    assertFalse(arrivals.contains("about a second early"), "one statement, not two");
  }

  @Test
  void benchServeFlagTableIsTheOneInTheCode() throws IOException {
    String flags = section("docs/command-line.md", "## Flags");
    assertTrue(flags.contains(FlagChoices.markdownTable()),
        "docs/command-line.md's flag table differs from FlagChoices.markdownTable(); paste it "
            + "again:\n" + FlagChoices.markdownTable());
  }

  @Test
  void benchServeBackendTableIsTheOneInTheCode() throws IOException {
    String backends = section("docs/backends.md", "# Backends");
    assertTrue(backends.contains(Backends.markdownTable()),
        "docs/backends.md's backend table differs from Backends.markdownTable(); paste it again:\n"
            + Backends.markdownTable());
  }

  /**
   * Followed in order, "Your own project" works: the archetype is installed before
   * {@code archetype:generate} asks for it (else Maven says "The desired archetype does not
   * exist"), and the plugin before the generated project needs it.
   */
  @Test
  void ownProjectInstallsTheArchetypeBeforeGeneratingFromIt() throws IOException {
    String own = section("README.md", "## Your own project");
    int plugin = own.indexOf("./mvnw -B install");
    int archetype = own.indexOf("-f archetype/pom.xml install");
    int generate = own.indexOf("archetype:generate");
    assertTrue(plugin >= 0 && archetype >= 0 && generate >= 0, own);
    assertTrue(plugin < generate && archetype < generate,
        "the install steps must come before archetype:generate");
  }

  /**
   * The README's second set-up command is the test command CI runs: {@code .ci/run} runs it
   * as written, so what a contributor types is what CI checks.
   */
  @Test
  void theReadmesTestCommandIsTheOneCiRuns() throws IOException {
    String setUp = section("README.md", "## Set-up: two commands");
    Matcher block = Pattern.compile("(?s)```bash\n(.*?)```").matcher(setUp);
    assertTrue(block.find(), setUp);
    List<String> commands = block.group(1).lines()
        .map(l -> l.replaceFirst("\\s*#.*$", "").strip())
        .filter(l -> !l.isEmpty())
        .toList();
    assertEquals(List.of("./mvnw -B gatling:test", "./mvnw -B verify"), commands,
        "the two set-up commands: the quick start, then the tests");
    List<String> ci = Files.readAllLines(Path.of(".ci", "run")).stream()
        .map(String::strip)
        .toList();
    assertTrue(ci.contains(commands.get(1)), ".ci/run must run the README's test command "
        + commands.get(1));
  }

  /** The front page stays one: short, and its table of contents names every page of docs/. */
  @Test
  void theReadmeIsAFrontPageWithALineForEveryDocsPage() throws IOException {
    List<String> lines = Files.readAllLines(README);
    assertTrue(lines.size() <= 300, "README.md has " + lines.size() + " lines; the manual "
        + "belongs in docs/");
    String manual = section("README.md", "## The manual");
    for (Path page : MarkdownPage.manual()) {
      if (page.startsWith("docs")) {
        assertTrue(manual.contains("](docs/" + page.getFileName() + ")"),
            "the README's table of contents has no line for " + page);
      }
    }
    Matcher count = Pattern.compile("(\\d+)\\s+datasets").matcher(String.join("\n", lines));
    assertTrue(count.find(), "the README counts the datasets");
    assertEquals(Datasets.NAMES.size(), Integer.parseInt(count.group(1)),
        "the README's count of datasets");
  }

  private static final Pattern SAMPLE_COMMAND = Pattern.compile("^\\$ gatling-llm (.*)$");

  /**
   * Every sample of a command line the launcher refuses before loading anything ({@code $
   * gatling-llm ...} followed by its "lists the flags" line) prints exactly what the page
   * shows, and exits 2.
   */
  @Test
  void refusedCommandLineSamplesPrintWhatTheLauncherPrints() throws IOException {
    int checked = 0;
    List<String> wrong = new ArrayList<>();
    for (Path file : MarkdownPage.manual()) {
      MarkdownPage page = new MarkdownPage(file);
      List<String> lines = page.lines;
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = SAMPLE_COMMAND.matcher(lines.get(i));
        if (!page.code[i] || !m.matches()) {
          continue;
        }
        StringBuilder command = new StringBuilder(m.group(1));
        while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
          command.setLength(command.length() - 1);
          command.append(' ').append(lines.get(++i).strip());
        }
        StringBuilder shown = new StringBuilder();
        int j = i + 1;
        while (j < lines.size() && page.code[j] && !lines.get(j).startsWith("$ ")
            && !lines.get(j).startsWith("```")) {
          shown.append(lines.get(j++)).append('\n');
        }
        if (command.indexOf("|") >= 0 || !shown.toString().endsWith("lists the flags.\n")) {
          continue;   // a run, or a pipe: not a refusal at parse time
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = GatlingLlm.run(words(command.toString()).toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = err.toString(StandardCharsets.UTF_8);
        if (status != 2 || !printed.equals(shown.toString())) {
          wrong.add(file + ":" + (i + 1) + ": gatling-llm " + command + "\nshown:\n" + shown
              + "printed (exit " + status + "):\n" + printed);
        }
        checked++;
      }
    }
    assertEquals(List.of(), wrong);
    assertTrue(checked >= 5, "refused command-line samples found: " + checked);
  }

  /** A command line's words, split as a POSIX shell splits them (quotes, backslashes). */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        if (word == null) {
          word = new StringBuilder();
        }
        if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '\\' && i + 1 < line.length()) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  @Test
  void wordsAreSplitAsAShellSplitsThem() {
    assertEquals(List.of("bench", "serve", "--extra-body", "{\"min_tokens\": 32}", "--label",
        "two words", "a\"b"), words("bench serve --extra-body '{\"min_tokens\": 32}' "
        + "--label \"two words\" a\\\"b"));
  }
}
