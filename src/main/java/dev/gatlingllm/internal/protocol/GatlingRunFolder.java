package dev.gatlingllm.internal.protocol;

import io.gatling.core.actor.Actor;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.stats.writer.RunMessage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run folder of the Gatling run in progress, exactly: Gatling (3.15, 3.16) names it by its
 * run id, {@code <simulation id>-<start, yyyyMMddHHmmssSSS>} ({@code RunMessage.runId}), which
 * its stats engine holds. Neither the id nor the folder is public API, so the run id is read from
 * the stats engine's data writers; nothing is inferred from folder names or times, so runs
 * started together in one project each find their own folder.
 *
 * <p>Gatling itself does not keep two runs of one simulation started in the same millisecond
 * apart: both get the same run id and write one folder (and one {@code simulation.log}). The
 * plugin's files still follow Gatling's folder, without mixing: the first run of the plugin to
 * {@linkplain #claim claim} the folder writes into it, a later one into a subfolder
 * {@code llm-run-<n>} of it.
 *
 * <p>This is the one place a run's folder is decided; the record log, the result JSON and the
 * LLM report all go where it says. The one fallback, for a run whose id cannot be read (a test
 * harness, another stats engine): the newest run folder started since this JVM did, judged by
 * the start time in its name ({@link #startedByThisJvm}).
 */
final class GatlingRunFolder {

  /** Created in a run folder by the run that writes its files there; see {@link #claim}. */
  static final String CLAIM_FILE = ".gatling-llm-run";
  /** Subfolder of a shared run folder for the n-th run of the plugin in it (n from 2). */
  static final String SHARED_RUN_PREFIX = "llm-run-";

  private static final Logger LOG = LoggerFactory.getLogger(GatlingRunFolder.class);
  /** A run id's start time: a dash and 17 digits, {@code yyyyMMddHHmmssSSS}. */
  private static final Pattern RUN_SUFFIX = Pattern.compile("-\\d{17}$");
  private static final DateTimeFormatter FOLDER_TIME =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT);
  /**
   * The JVM's start time and the name's start time are read from two clocks (the JVM's and
   * Gatling's, both wall clocks in ms): a run started just after the JVM still passes.
   */
  private static final long CLOCK_SLACK_MILLIS = 1_000;

  private GatlingRunFolder() {}

  /**
   * The folder this run's files go into: Gatling's run folder of the run that
   * {@code statsEngine} records, claimed for this run; when it is in none of the
   * {@code roots}, {@value RunRecordLog#FALLBACK_FOLDER}{@code /<run id>} (never another run's
   * folder). When the run id cannot be read, the fallback {@link #startedByThisJvm}; empty
   * when that finds none either.
   */
  static Optional<Path> of(StatsEngine statsEngine, List<Path> roots) {
    Optional<String> runId = statsEngine == null ? Optional.empty() : runId(statsEngine);
    if (runId.isEmpty()) {
      return startedByThisJvm(roots, System.currentTimeMillis(),
          ManagementFactory.getRuntimeMXBean().getStartTime());
    }
    Path folder = find(runId.get(), roots).orElse(null);
    try {
      if (folder == null) {
        folder = Files.createDirectories(Paths.get(RunRecordLog.FALLBACK_FOLDER, runId.get()));
        LOG.warn("Gatling run folder {} is in none of {} (set -D{}=<Gatling's results folder>): "
            + "this run's files go to {}", runId.get(), roots,
            RunResults.RESULTS_FOLDER_PROPERTY, folder);
      }
      return Optional.of(claim(folder));
    } catch (IOException e) {
      LOG.warn("cannot claim the run folder {} ({}): writing into it", folder, e.toString());
      return Optional.ofNullable(folder);
    }
  }

  /**
   * The fallback for a run whose id cannot be read: of the run folders in {@code roots} that
   * hold a {@code simulation.log}, the one with the latest start time in its name
   * ({@code <simulation id>-<yyyyMMddHHmmssSSS>}, Gatling's clock and zone) that is not after
   * {@code nowMillis} and not before {@code jvmStartMillis} less {@value #CLOCK_SLACK_MILLIS} ms:
   * a folder from before this JVM is an older run's (an earlier build, a test harness). Wrong
   * when runs of one JVM overlap, or another JVM starts a run into the same results folder.
   */
  static Optional<Path> startedByThisJvm(List<Path> roots, long nowMillis, long jvmStartMillis) {
    Optional<Path> best = Optional.empty();
    long bestStart = Long.MIN_VALUE;
    for (Path root : roots) {
      try (Stream<Path> children = Files.list(root)) {
        for (Path p : (Iterable<Path>) children::iterator) {
          long started = startMillis(p);
          if (started != Long.MIN_VALUE && started <= nowMillis && started > bestStart
              && started >= jvmStartMillis - CLOCK_SLACK_MILLIS
              && Files.isRegularFile(p.resolve("simulation.log"))) {
            best = Optional.of(p);
            bestStart = started;
          }
        }
      } catch (IOException e) {
        // not a folder we can read: try the next root
      }
    }
    return best;
  }

  /** The start time in a run folder's name, epoch ms in this JVM's zone; MIN_VALUE if none. */
  static long startMillis(Path folder) {
    Matcher m = RUN_SUFFIX.matcher(folder.getFileName().toString());
    if (!m.find()) {
      return Long.MIN_VALUE;
    }
    try {
      return LocalDateTime.parse(m.group().substring(1), FOLDER_TIME)
          .atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return Long.MIN_VALUE;
    }
  }

  /** The folders Gatling's results folder is looked for in: the configured one first. */
  static List<Path> roots() {
    List<Path> roots = new ArrayList<>();
    String configured = System.getProperty(RunResults.RESULTS_FOLDER_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      roots.add(Paths.get(configured));
    }
    roots.add(Paths.get("target", "gatling"));
    roots.add(Paths.get("build", "reports", "gatling")); // Gradle's
    roots.add(Paths.get("results"));
    return roots;
  }

  /** Gatling's run id ({@code RunMessage.runId}) as its stats engine's data writers hold it. */
  static Optional<String> runId(StatsEngine statsEngine) {
    try {
      for (Field writers : fieldsOf(statsEngine.getClass())) {
        if (!scala.collection.Iterable.class.isAssignableFrom(writers.getType())) {
          continue;
        }
        writers.setAccessible(true);
        scala.collection.Iterator<?> refs =
            ((scala.collection.Iterable<?>) writers.get(statsEngine)).iterator();
        while (refs.hasNext()) {
          Object ref = refs.next();
          Object actor = valueOfType(ref, Actor.class);
          Object message = actor == null ? null : valueOfType(actor, RunMessage.class);
          if (message != null) {
            return Optional.of(((RunMessage) message).runId());
          }
        }
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.debug("no run id in {}: {}", statsEngine.getClass().getName(), e.toString());
    }
    return Optional.empty();
  }

  /**
   * The folder named {@code runId} that holds a {@code simulation.log}, in the first of
   * {@code roots} that has one; else the one this JVM holds the {@code simulation.log} of
   * open (Linux), for results written anywhere else.
   */
  static Optional<Path> find(String runId, List<Path> roots) {
    for (Path root : roots) {
      Path folder = root.resolve(runId);
      if (Files.isRegularFile(folder.resolve("simulation.log"))) {
        return Optional.of(folder);
      }
    }
    Path fds = Paths.get("/proc/self/fd");
    if (!Files.isDirectory(fds)) {
      return Optional.empty();
    }
    try (Stream<Path> open = Files.list(fds)) {
      return open.map(GatlingRunFolder::target)
          .filter(p -> p != null && p.getFileName() != null && p.getParent() != null
              && p.getFileName().toString().equals("simulation.log")
              && p.getParent().getFileName().toString().equals(runId))
          .map(Path::getParent)
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Claims {@code runFolder} for this run and returns where its files go: the folder itself
   * when no other run claimed it first, else a new {@code llm-run-<n>} subfolder of it (a
   * Gatling run of the same simulation started in the same millisecond: same run id).
   * Creating a file or folder is atomic, so JVMs claiming together never get the same one.
   */
  static Path claim(Path runFolder) throws IOException {
    try {
      Files.writeString(Files.createFile(runFolder.resolve(CLAIM_FILE)),
          "pid " + ProcessHandle.current().pid() + "\n");
      return runFolder;
    } catch (FileAlreadyExistsException shared) {
      for (int n = 2; ; n++) {
        try {
          Path own = Files.createDirectory(runFolder.resolve(SHARED_RUN_PREFIX + n));
          LOG.warn("another run of this simulation started in the same millisecond and shares "
              + "Gatling's run folder {} (Gatling names it by simulation and start "
              + "millisecond, and its simulation.log then mixes both runs): this run's record "
              + "log, result JSON and LLM report go to {}", runFolder, own);
          return own;
        } catch (FileAlreadyExistsException taken) {
          // a third run (or more) in the same millisecond: the next number
        }
      }
    }
  }

  private static Path target(Path link) {
    try {
      return Files.readSymbolicLink(link);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  private static Object valueOfType(Object owner, Class<?> type)
      throws ReflectiveOperationException {
    for (Field f : fieldsOf(owner.getClass())) {
      if (type.isAssignableFrom(f.getType())) {
        f.setAccessible(true);
        return f.get(owner);
      }
    }
    return null;
  }

  private static List<Field> fieldsOf(Class<?> type) {
    List<Field> fields = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers())) {
          fields.add(f);
        }
      }
    }
    return fields;
  }
}
