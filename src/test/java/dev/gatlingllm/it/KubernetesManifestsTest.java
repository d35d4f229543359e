package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.File;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes example (examples/kubernetes/), checked without a cluster: every manifest
 * parses into fabric8's model classes with no unknown field anywhere, the pieces agree with
 * each other and with the Jib image in the pom, and the Jobs' own command lines, run here as
 * Kubernetes would run them (its {@code $(VAR)} expansion, the Indexed Job's index), benchmark
 * the simulator on three injectors and merge the result.
 */
class KubernetesManifestsTest {

  private static final Path DIR = Path.of("examples", "kubernetes");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  /** Jib's class path in the image: a file of the image's jars and folders, in order. */
  private static final String JIB_CLASSPATH = "@/app/jib-classpath-file";

  @TempDir
  Path work;

  @Test
  void everyManifestIsAKnownKubernetesObjectWithNoUnknownField() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(DIR)) {
      files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertEquals(List.of("injectors-job.yaml", "merge-job.yaml", "results-pod.yaml",
        "results-pvc.yaml"), files.stream().map(p -> p.getFileName().toString()).toList());
    for (Path file : files) {
      String kind = YAML.readTree(file.toFile()).get("kind").asText();
      Class<?> type = switch (kind) {
        case "Job" -> Job.class;
        case "Pod" -> Pod.class;
        case "PersistentVolumeClaim" -> PersistentVolumeClaim.class;
        default -> throw new AssertionError(file + ": unexpected kind " + kind);
      };
      Object parsed = YAML.readValue(file.toFile(), type);
      List<String> unknown = new ArrayList<>();
      unknownFields(parsed, kind, unknown, new IdentityHashMap<>());
      assertEquals(List.of(), unknown, file + " has fields Kubernetes does not know");
    }
  }

  @Test
  void unknownFieldsAreFoundAtAnyDepth() throws Exception {
    Job job = YAML.readValue("apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n"
        + "      containers:\n        - name: x\n          imagePullPolcy: Always\n", Job.class);
    List<String> unknown = new ArrayList<>();
    unknownFields(job, "Job", unknown, new IdentityHashMap<>());
    assertEquals(List.of("Job.spec.template.spec.containers[0].imagePullPolcy"), unknown);
  }

  @Test
  void thePiecesFitTogether() throws Exception {
    Job injectors = YAML.readValue(DIR.resolve("injectors-job.yaml").toFile(), Job.class);
    Job merge = YAML.readValue(DIR.resolve("merge-job.yaml").toFile(), Job.class);
    PersistentVolumeClaim pvc = YAML.readValue(DIR.resolve("results-pvc.yaml").toFile(),
        PersistentVolumeClaim.class);
    Pod reader = YAML.readValue(DIR.resolve("results-pod.yaml").toFile(), Pod.class);

    assertEquals("Indexed", injectors.getSpec().getCompletionMode());
    int n = injectors.getSpec().getCompletions();
    assertEquals(n, injectors.getSpec().getParallelism(), "all injectors run at once");
    assertEquals(0, injectors.getSpec().getBackoffLimitPerIndex(), "a dead injector stays dead");
    assertEquals(n, injectors.getSpec().getMaxFailedIndexes(), "and the others go on");
    Container injector = injectors.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(String.valueOf(n), env(injector).get("LLM_INJECTORS"),
        "LLM_INJECTORS must equal completions");
    assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
        injector.getEnv().stream().filter(e -> e.getName().equals("JOB_COMPLETION_INDEX"))
            .findFirst().orElseThrow().getValueFrom().getFieldRef().getFieldPath());
    assertEquals(env(injector).get("LLM_RUN"), env(mergeContainer(merge)).get("LLM_RUN"));
    assertTrue(pvc.getSpec().getAccessModes().contains("ReadWriteMany"));
    for (PodSpec pod : List.of(injectors.getSpec().getTemplate().getSpec(),
        merge.getSpec().getTemplate().getSpec(), reader.getSpec())) {
      assertEquals(pvc.getMetadata().getName(),
          pod.getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
      assertEquals("/results", pod.getContainers().get(0).getVolumeMounts().get(0).getMountPath());
    }
    assertEquals("Never", injectors.getSpec().getTemplate().getSpec().getRestartPolicy());

    // the image is the pom's Jib image: its main class and Jib's class path layout
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher jib = Pattern.compile("<artifactId>jib-maven-plugin</artifactId>(.*?)</plugin>",
        Pattern.DOTALL).matcher(pom);
    assertTrue(jib.find(), "the pom configures Jib");
    assertFalse(jib.group(1).contains("<executions>"), "Jib is bound to no phase: CI never "
        + "pulls a base image");
    Matcher main = Pattern.compile("<mainClass>(.*?)</mainClass>").matcher(jib.group(1));
    assertTrue(main.find());
    List<String> command = injector.getCommand();
    assertEquals(main.group(1), command.get(command.size() - 1));
    assertEquals(JIB_CLASSPATH, command.get(command.indexOf("-cp") + 1));
    assertEquals(JIB_CLASSPATH, mergeContainer(merge).getCommand().get(2));
    assertEquals(main.group(1), mergeContainer(merge).getCommand().get(3));
    assertEquals(List.of("bench", "serve"), injector.getArgs());
    assertEquals("merge", mergeContainer(merge).getArgs().get(0));
  }

  @Test
  void theJobsCommandLinesBenchmarkOnThreeInjectorsAndMerge() throws Exception {
    Job injectors = YAML.readValue(DIR.resolve("injectors-job.yaml").toFile(), Job.class);
    Job merge = YAML.readValue(DIR.resolve("merge-job.yaml").toFile(), Job.class);
    Container injector = injectors.getSpec().getTemplate().getSpec().getContainers().get(0);
    int n = injectors.getSpec().getCompletions();
    Path results = Files.createDirectories(work.resolve("results"));
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(java.time.Duration.ofMillis(20)).itl(java.time.Duration.ofMillis(5)).build())) {
      // what differs here from a cluster: the server, and a benchmark small enough for a test
      Map<String, String> overrides = Map.of("LLM_BASE_URL", sim.baseUrl(),
          "LLM_MODEL", "served-llm", "LLM_TOKENIZER", "gpt2",
          "LLM_ARGS", shrink(env(injector).get("LLM_ARGS")));
      List<Process> pods = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        Map<String, String> env = podEnv(injector, k, overrides, results);
        List<String> line = commandLine(injector, env, results);
        ProcessBuilder pod = new ProcessBuilder(line).redirectErrorStream(true)
            .redirectOutput(work.resolve("injector-" + k + ".out").toFile())
            .directory(work.toFile());
        pod.environment().putAll(env);
        pods.add(pod.start());
      }
      for (int k = 0; k < n; k++) {
        assertTrue(pods.get(k).waitFor(150, TimeUnit.SECONDS), "injector " + k + " hung");
        assertEquals(0, pods.get(k).exitValue(),
            Files.readString(work.resolve("injector-" + k + ".out")));
      }
    }
    Container merger = mergeContainer(merge);
    Map<String, String> env = podEnv(merger, 0, Map.of(), results);
    ProcessBuilder job = new ProcessBuilder(commandLine(merger, env, results))
        .redirectErrorStream(true).redirectOutput(work.resolve("merge.out").toFile());
    job.environment().putAll(env);
    Process m = job.start();
    assertTrue(m.waitFor(60, TimeUnit.SECONDS));
    String out = Files.readString(work.resolve("merge.out"));
    assertEquals(0, m.exitValue(), out);
    Path merged = results.resolve(env.get("LLM_RUN")).resolve("merged");
    Path json;
    try (Stream<Path> s = Files.list(merged)) {
      json = s.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
    }
    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    assertEquals(30, doc.get("completed").asInt(), out);
    assertEquals(n, doc.get("injectors").size());
    assertEquals("k8s", doc.get("label").asText());
    assertTrue(Files.exists(merged.resolve("llm-report.html")));
    assertTrue(out.contains("Serving Benchmark Result"), out);
  }

  /** The manifest's workload, scaled down: each replaced flag must be in it. */
  private static String shrink(String args) {
    String out = args;
    for (String[] r : new String[][] {{"--num-prompts 3000", "--num-prompts 30"},
        {"--request-rate 60", "--request-rate 20"}, {"--random-input-len 1024",
        "--random-input-len 64"}, {"--random-output-len 128", "--random-output-len 8"},
        {"--max-concurrency 600", "--max-concurrency 6"}}) {
      assertTrue(out.contains(r[0]), "the manifest's LLM_ARGS has " + r[0]);
      out = out.replace(r[0], r[1]);
    }
    return out;
  }

  private static Container mergeContainer(Job merge) {
    return merge.getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  private static Map<String, String> env(Container c) {
    Map<String, String> m = new LinkedHashMap<>();
    for (EnvVar e : c.getEnv()) {
      if (e.getValue() != null) {
        m.put(e.getName(), e.getValue());
      }
    }
    return m;
  }

  /**
   * The container's environment as Kubernetes builds it: values in order, each expanding the
   * {@code $(VAR)} of those before it; the completion index from the pod's annotation.
   */
  private static Map<String, String> podEnv(Container c, int index,
      Map<String, String> overrides, Path results) {
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar e : c.getEnv()) {
      String value;
      if (e.getValueFrom() != null) {
        assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
            e.getValueFrom().getFieldRef().getFieldPath(), e.getName());
        value = String.valueOf(index);
      } else {
        value = overrides.getOrDefault(e.getName(), expand(e.getValue(), env));
      }
      env.put(e.getName(), onThisMachine(value, results));
    }
    return env;
  }

  private static List<String> commandLine(Container c, Map<String, String> env, Path results) {
    List<String> line = new ArrayList<>();
    for (String part : concat(c.getCommand(), c.getArgs())) {
      String v = onThisMachine(expand(part, env), results);
      if (v.equals("java")) {
        v = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      } else if (v.equals(JIB_CLASSPATH)) {
        v = System.getProperty("java.class.path");
      }
      line.add(v);
    }
    return line;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    if (b != null) {
      out.addAll(b);
    }
    return out;
  }

  private static String expand(String s, Map<String, String> env) {
    Matcher m = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(v != null ? v : m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The volume's mount point, here. */
  private static String onThisMachine(String s, Path results) {
    return s.replace("/results", results.toString().replace(File.separatorChar, '/'));
  }

  /**
   * Collects the unknown keys (fabric8 keeps them in {@code additionalProperties}) of every
   * model object reachable from {@code o}.
   */
  static void unknownFields(Object o, String path, List<String> out,
      IdentityHashMap<Object, Boolean> seen) throws Exception {
    if (o == null || seen.put(o, true) != null) {
      return;
    }
    if (o instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        unknownFields(list.get(i), path + "[" + i + "]", out, seen);
      }
      return;
    }
    if (o instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        unknownFields(e.getValue(), path + "." + e.getKey(), out, seen);
      }
      return;
    }
    if (!o.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method m : o.getClass().getMethods()) {
      if (m.getParameterCount() != 0 || !m.getName().startsWith("get")
          || m.getDeclaringClass() == Object.class) {
        continue;
      }
      Object value = m.invoke(o);
      if (m.getName().equals("getAdditionalProperties")) {
        for (Object key : ((Map<?, ?>) value).keySet()) {
          out.add(path + "." + key);
        }
      } else {
        String name = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
        unknownFields(value, path + "." + name, out, seen);
      }
    }
  }
}
