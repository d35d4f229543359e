package dev.gatlingllm.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The floor of {@link StartupMemoryBenchmark}: a main that loads every class a run loaded (a
 * {@code -XX:DumpLoadedClassList} list) and runs nothing else, so that the JVM's cost of
 * holding those classes is measured apart from the work the run does with them. Generated
 * classes (lambdas, proxies: not loadable by name) and the list's other lines are skipped.
 *
 * <p>Arguments: the list ({@code -} for none: the JVM alone), then {@code load} (load only),
 * or {@code init} (load, link and run each class's static initialiser, as a run would; one
 * that fails is counted and passed over).
 */
public final class ClassFloor {

  private ClassFloor() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("-")) {
      System.out.println("floor: no classes");
      return;
    }
    boolean init = args.length > 1 && args[1].equals("init");
    ClassLoader loader = ClassFloor.class.getClassLoader();
    int loaded = 0;
    int failed = 0;
    for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#") || line.startsWith("@")) {
        continue;
      }
      String name = line.split(" ", 2)[0].replace('/', '.');
      if (name.contains("$$Lambda") || name.contains("$Proxy") || name.contains("/0x")) {
        continue;
      }
      try {
        Class.forName(name, init, loader);
        loaded++;
      } catch (Throwable notHere) {
        failed++;
      }
    }
    System.out.println("floor: " + loaded + " classes " + (init ? "initialised" : "loaded")
        + ", " + failed + " not");
  }
}
