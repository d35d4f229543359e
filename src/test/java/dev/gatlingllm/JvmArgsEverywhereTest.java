package dev.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.selfcheck.JvmSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every place a user copies the JVM settings from gives exactly the list the run checks its
 * JVM against ({@link JvmSettings}), in the same order: a copy that drifts is a warning at
 * every run of the projects made from it.
 */
class JvmArgsEverywhereTest {

  /**
   * The files whose gatling-maven-plugin {@code <jvmArgs>} must be {@link
   * JvmSettings#jvmArgs()}: the first {@code <jvmArgs>} block after the first mention of
   * {@code gatling-maven-plugin} in each.
   */
  static final List<Path> FILES_WITH_THE_JVM_ARGS = List.of(
      Path.of("pom.xml"),
      Path.of("examples", "bench-serve", "pom.xml"),
      Path.of("archetype", "src", "main", "resources", "archetype-resources", "pom.xml"),
      Path.of("README.md"));

  private static final Pattern JVM_ARG = Pattern.compile("<jvmArg>([^<]*)</jvmArg>");

  @Test
  void eachFileGivesGatlingTheSettingsTheRunChecks() throws IOException {
    for (Path file : FILES_WITH_THE_JVM_ARGS) {
      assertEquals(JvmSettings.jvmArgs(), gatlingJvmArgs(file),
          file + ": its gatling-maven-plugin <jvmArgs> differ from JvmSettings; paste:\n"
              + JvmSettings.mavenBlock());
    }
  }

  @Test
  void theInjectorImageAndItsKubernetesJobGiveTheSameSettings() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    int jib = pom.indexOf("<artifactId>jib-maven-plugin</artifactId>");
    String flags = pom.substring(pom.indexOf("<jvmFlags>", jib), pom.indexOf("</jvmFlags>", jib));
    List<String> image = new ArrayList<>();
    Matcher m = Pattern.compile("<jvmFlag>([^<]*)</jvmFlag>").matcher(flags);
    while (m.find()) {
      image.add(m.group(1).trim());
    }
    List<String> expected = new ArrayList<>(launcherExpected());
    expected.add("-Dllm.resultsFolder=/results");
    assertEquals(expected, image, "the Jib image's jvmFlags: bin/gatling-llm's, then where the "
        + "runs go");

    String job = Files.readString(Path.of("examples", "kubernetes", "injectors-job.yaml"));
    StringBuilder lines = new StringBuilder();
    JvmSettings.jvmArgs().forEach(arg -> lines.append("            - ").append(arg).append('\n'));
    assertTrue(job.contains(lines), "the injector Job's java command gives, in order:\n" + lines);
  }

  /**
   * {@code bin/gatling-llm} of the distribution starts Java with Gatling's module opening, then
   * exactly the settings, then the user's {@code JAVA_OPTS} (which may override them).
   */
  @Test
  void theLaunchersScriptGivesTheSameSettingsBeforeJavaOpts() throws IOException {
    assertEquals(launcherExpected(), launcherFlags(
        Files.readString(Path.of("src", "main", "dist", "bin", "gatling-llm"))));
  }

  @Test
  void aScriptWithADriftedFlagIsCaught() {
    String script = "exec \"$JAVACMD\" \\\n  --add-opens=java.base/java.lang=ALL-UNNAMED \\\n"
        + "  -XX:+UseG1GC \\\n  $JAVA_OPTS \\\n  -cp x Main \"$@\"\n";
    assertEquals(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "-XX:+UseG1GC"),
        launcherFlags(script));
    assertTrue(!launcherFlags(script).equals(launcherExpected()));
  }

  private static List<String> launcherExpected() {
    // Gatling's module opening, and Netty's native transport allowed (Java 22+ warns without)
    List<String> expected = new ArrayList<>(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED"));
    expected.addAll(JvmSettings.jvmArgs());
    return expected;
  }

  /** The JVM flags of the script's java command: the lines between it and $JAVA_OPTS. */
  static List<String> launcherFlags(String script) {
    int exec = script.indexOf("exec \"$JAVACMD\"");
    assertTrue(exec >= 0, "the script has no exec \"$JAVACMD\" line");
    int opts = script.indexOf("$JAVA_OPTS", exec);
    assertTrue(opts >= 0, "the script gives no $JAVA_OPTS");
    List<String> flags = new ArrayList<>();
    for (String line : script.substring(exec, opts).split("\n")) {
      String word = line.strip().replaceAll("\\s*\\\\$", "");
      if (word.startsWith("-")) {
        flags.add(word);
      }
    }
    return flags;
  }

  @Test
  void theReadmesBlockIsTheOneTheWarningPrints() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    assertTrue(readme.contains("```xml\n" + JvmSettings.mavenBlock() + "\n```\n"),
        "README's <jvmArgs> block differs from JvmSettings.mavenBlock()");
  }

  @Test
  void theValuesAreReadFromThePluginsBlockOnly() {
    String pom = "<jvmArgs><jvmArg>-Xother</jvmArg></jvmArgs>\n<plugin>\n"
        + "<artifactId>gatling-maven-plugin</artifactId>\n<configuration>\n<jvmArgs>\n"
        + "  <jvmArg> -Xms1m </jvmArg>\n  <jvmArg>-Da=b</jvmArg>\n</jvmArgs>\n"
        + "<jvmArgs><jvmArg>-Xlater</jvmArg></jvmArgs>";
    assertEquals(List.of("-Xms1m", "-Da=b"), gatlingJvmArgs("test", pom));
  }

  static List<String> gatlingJvmArgs(Path file) throws IOException {
    return gatlingJvmArgs(file.toString(), Files.readString(file));
  }

  private static List<String> gatlingJvmArgs(String name, String text) {
    int plugin = text.indexOf("gatling-maven-plugin");
    assertTrue(plugin >= 0, name + " names no gatling-maven-plugin");
    int from = text.indexOf("<jvmArgs>", plugin);
    assertTrue(from >= 0, name + " has no <jvmArgs> after gatling-maven-plugin");
    int to = text.indexOf("</jvmArgs>", from);
    Matcher m = JVM_ARG.matcher(text.substring(from, to));
    List<String> args = new ArrayList<>();
    while (m.find()) {
      args.add(m.group(1).trim());
    }
    return args;
  }
}
