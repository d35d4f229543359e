package dev.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and docs/*.md compiles against the plugin, and
 * imports nothing of the plugin but {@code LlmDsl}'s static members, so that no snippet can
 * drift from the API and none needs more than the one import. The simulations under
 * {@code simulations/} are held to the same import rule (the build compiles them).
 *
 * <p>A block that declares a class is compiled as it stands: it must be complete, imports
 * included. Any other block is a fragment of a simulation: it is compiled as the body of an
 * instance initialiser of a {@code Simulation}, after its own {@code import} lines and these:
 * {@code import static dev.gatlingllm.LlmDsl.*; import static
 * io.gatling.javaapi.core.CoreDsl.*; import io.gatling.javaapi.core.*; import java.nio.file.*;
 * import java.time.*; import java.util.*;}. So a fragment declares what it uses. A block
 * whose first line starts with {@value #BEFORE_MARKER} shows code of an earlier version and
 * is not compiled.
 */
class DocSnippetsTest {

  static final String BEFORE_MARKER = "// before:";

  private static final Pattern JAVA_BLOCK = Pattern.compile("(?ms)^```java\\n(.*?)^```");
  private static final Pattern CLASS_DECLARATION =
      Pattern.compile("(?m)^(public\\s+)?(final\\s+)?class\\s+(\\w+)");
  private static final Pattern PLUGIN_IMPORT =
      Pattern.compile("(?m)^import\\s+(static\\s+)?dev\\.gatlingllm\\.[\\w.*]+\\s*;");
  private static final Pattern ALLOWED_IMPORT =
      Pattern.compile("import\\s+static\\s+dev\\.gatlingllm\\.LlmDsl\\.(\\*|\\w+)\\s*;");
  private static final String FRAGMENT_IMPORTS = "import static dev.gatlingllm.LlmDsl.*;\n"
      + "import static io.gatling.javaapi.core.CoreDsl.*;\n"
      + "import io.gatling.javaapi.core.*;\n"
      + "import java.nio.file.*;\n"
      + "import java.time.*;\n"
      + "import java.util.*;\n";

  @TempDir
  Path classes;

  /** One block: where it is, and its text. */
  record Snippet(String where, String code) { }

  static List<Snippet> snippets() throws IOException {
    List<Path> files = MarkdownPage.manual();
    List<Snippet> snippets = new ArrayList<>();
    for (Path file : files) {
      String text = Files.readString(file);
      Matcher m = JAVA_BLOCK.matcher(text);
      while (m.find()) {
        int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
        snippets.add(new Snippet(file + ":" + line, m.group(1)));
      }
    }
    return snippets;
  }

  @Test
  void everyJavaSnippetCompilesWithTheOneImport() throws IOException {
    List<Snippet> snippets = snippets();
    assertTrue(snippets.size() >= 16, "found the snippets: " + snippets.size());
    List<JavaFileObject> sources = new ArrayList<>();
    List<String> where = new ArrayList<>();
    List<String> badImports = new ArrayList<>();
    for (Snippet s : snippets) {
      if (s.code().startsWith(BEFORE_MARKER)) {
        continue;
      }
      Matcher imports = PLUGIN_IMPORT.matcher(s.code());
      while (imports.find()) {
        if (!ALLOWED_IMPORT.matcher(imports.group()).matches()) {
          badImports.add(s.where() + ": " + imports.group());
        }
      }
      String name = "Snippet" + sources.size();
      Matcher declared = CLASS_DECLARATION.matcher(s.code());
      String source;
      if (declared.find()) {
        name = declared.group(3);
        source = s.code();
      } else {
        StringBuilder ownImports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        s.code().lines().forEach(l -> (l.startsWith("import ") ? ownImports : body)
            .append(l).append('\n'));
        source = ownImports + FRAGMENT_IMPORTS + "public class " + name
            + " extends Simulation {\n{\n" + body + "}\n}\n";
      }
      sources.add(new Source(name, source));
      where.add(s.where());
    }
    assertEquals(List.of(), badImports, "snippets that import the plugin's packages: use "
        + "import static dev.gatlingllm.LlmDsl.*; alone");

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK runs the tests");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter out = new StringWriter();
    boolean ok = javac.getTask(out, null, diagnostics, List.of("-d", classes.toString(),
        "-classpath", System.getProperty("java.class.path"), "-proc:none"), null, sources)
        .call();
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        int i = sources.indexOf(d.getSource());
        errors.add((i >= 0 ? where.get(i) : "?") + " (compiled line " + d.getLineNumber()
            + "): " + d.getMessage(Locale.ROOT));
      }
    }
    assertEquals(List.of(), errors, "snippets that do not compile");
    assertTrue(ok, out.toString());
  }

  @Test
  void everySimulationImportsOnlyLlmDslOfThePlugin() throws IOException {
    List<String> bad = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> all = Files.walk(Path.of("simulations"))) {
      files = all.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    assertTrue(files.size() >= 13, "found the simulations: " + files);
    for (Path file : files) {
      Matcher imports = PLUGIN_IMPORT.matcher(Files.readString(file));
      while (imports.find()) {
        if (!ALLOWED_IMPORT.matcher(imports.group()).matches()) {
          bad.add(file + ": " + imports.group());
        }
      }
    }
    assertEquals(List.of(), bad);
  }

  /** A source file held in memory. */
  private static final class Source extends SimpleJavaFileObject {
    private final String code;

    Source(String className, String code) {
      super(URI.create("string:///" + className + Kind.SOURCE.extension), Kind.SOURCE);
      this.code = code;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}
