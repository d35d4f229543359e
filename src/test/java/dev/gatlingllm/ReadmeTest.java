package dev.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.InjectionPlan;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.cli.BenchFlags;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What the README states about the code, checked against the code. */
class ReadmeTest {

  private static final Path README = Path.of("README.md");
  private static final Pattern TABLE_METHOD = Pattern.compile("(?m)^\\| `(\\w+)\\(");

  private static String section(String heading) throws IOException {
    String text = Files.readString(README);
    int start = text.indexOf(heading);
    assertTrue(start >= 0, "README has no section " + heading);
    int end = text.indexOf("\n#", start + heading.length());
    return text.substring(start, end < 0 ? text.length() : end);
  }

  @Test
  void protocolOptionsTableListsEveryOptionOfTheBuilder() throws IOException {
    Set<String> listed = new TreeSet<>();
    Matcher m = TABLE_METHOD.matcher(section("### Protocol options (`llm()`)"));
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
    String datasets = section("## Datasets");
    Set<String> rows = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^\\| `(\\w[\\w-]*)`").matcher(datasets);
    while (m.find()) {
      rows.add(m.group(1));
    }
    assertEquals(new TreeSet<>(Datasets.NAMES), rows);
    Set<String> missing = Datasets.FLAGS.stream()
        .filter(flag -> !datasets.contains("`--" + flag + "`"))
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of(), missing, "dataset flags the README does not name");
  }

  @Test
  void howEarlyUsersArriveIsStatedAsTheInjectionPlanDoesIt() throws IOException {
    InjectionPlan plan = InjectionPlan.of(
        ArrivalProfile.builder().numPrompts(10).requestRate(5).build().schedule());
    double lead = plan.lead().toMillis() / 1000.0;
    double latest = lead + 2 * plan.bucket().toMillis() / 1000.0;
    String arrivals = section("## Arrival profiles");
    assertTrue(arrivals.contains("between " + lead + " s and " + latest + " s before"),
        "the arrival section states the plan's " + lead + "-" + latest + " s lead");
    assertFalse(arrivals.contains("about a second early"), "one statement, not two");
  }

  @Test
  void benchServeFlagTableIsTheOneInTheCode() throws IOException {
    String flags = section("### Flags");
    assertTrue(flags.contains(BenchFlags.markdownTable()),
        "README's flag table differs from BenchFlags.markdownTable(); paste it again:\n"
            + BenchFlags.markdownTable());
  }

  @Test
  void benchServeBackendTableIsTheOneInTheCode() throws IOException {
    String backends = section("### Backends");
    assertTrue(backends.contains(Backends.markdownTable()),
        "README's backend table differs from Backends.markdownTable(); paste it again:\n"
            + Backends.markdownTable());
  }
  /**
   * Followed in order, "Your own project" works: the archetype is installed before
   * {@code archetype:generate} asks for it (else Maven says "The desired archetype does not
   * exist"), and the plugin before the generated project needs it.
   */
  @Test
  void ownProjectInstallsTheArchetypeBeforeGeneratingFromIt() throws IOException {
    String own = section("## Your own project");
    int plugin = own.indexOf("./mvnw -B install");
    int archetype = own.indexOf("-f archetype/pom.xml install");
    int generate = own.indexOf("archetype:generate");
    assertTrue(plugin >= 0 && archetype >= 0 && generate >= 0, own);
    assertTrue(plugin < generate && archetype < generate,
        "the install steps must come before archetype:generate");
  }
}
