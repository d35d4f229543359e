package dev.gatlingllm.internal.scale;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scale-out settings of this JVM: which share of the benchmark it sends
 * ({@link InjectorShare}), when the benchmark starts ({@code llm.startAt}) and how the clock
 * offset is measured ({@code llm.clockOffset}). Read from system properties, each with an
 * environment-variable fallback for containers:
 *
 * <table>
 * <caption>settings</caption>
 * <tr><th>property</th><th>environment</th><th>value</th></tr>
 * <tr><td>{@code llm.injector}</td><td>{@code LLM_INJECTOR}</td><td>{@code K/N}</td></tr>
 * <tr><td>{@code llm.injectors}</td><td>{@code LLM_INJECTORS}</td><td>{@code N}, with
 *     {@code JOB_COMPLETION_INDEX} as {@code K}</td></tr>
 * <tr><td>{@code llm.startAt}</td><td>{@code LLM_START_AT}</td><td>ISO-8601 instant</td></tr>
 * <tr><td>{@code llm.startBarrier}</td><td>{@code LLM_START_BARRIER}</td><td>a folder all
 *     injectors share: they start together once all are ready (see {@link StartBarrier})</td></tr>
 * <tr><td>{@code llm.clockOffset}</td><td>{@code LLM_CLOCK_OFFSET}</td><td>{@code date}
 *     (default), {@code local}, or a number of milliseconds</td></tr>
 * <tr><td>{@code llm.clockProbes}</td><td>{@code LLM_CLOCK_PROBES}</td><td>probes of the
 *     {@code date} measurement (default {@value DateHeaderClock#DEFAULT_PROBES})</td></tr>
 * </table>
 *
 * @param share     this injector's share
 * @param startAt   when the arrival schedule's offset 0 is, on the reference clock; empty =
 *                  when this injector's first user arrives (as without scale-out)
 * @param barrier   a folder shared by the injectors, to start together once all are ready
 *                  (instead of {@code startAt})
 * @param clock     {@code date}, {@code local} or a number of milliseconds
 * @param probes    probes of the {@code date} measurement
 * @param requested whether any scale-out setting was given (then the run records what the
 *                  merge needs, even as {@code 0/1})
 */
public record ScaleOut(InjectorShare share, Optional<Instant> startAt, Optional<Path> barrier,
    String clock, int probes, boolean requested) {

  public static final String INJECTOR_PROPERTY = "llm.injector";
  public static final String INJECTORS_PROPERTY = "llm.injectors";
  public static final String START_AT_PROPERTY = "llm.startAt";
  public static final String BARRIER_PROPERTY = "llm.startBarrier";
  public static final String CLOCK_PROPERTY = "llm.clockOffset";
  public static final String PROBES_PROPERTY = "llm.clockProbes";
  /** The result JSON / record log key of an injector's scale-out facts. */
  public static final String INJECTOR_KEY = "injector";

  private static volatile String datasetDigest;

  public ScaleOut {
    if (!clock.equals("date") && !clock.equals("local")) {
      try {
        Double.parseDouble(clock);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(CLOCK_PROPERTY + " '" + clock + "' is not one of "
            + "date (measure against the server's Date header), local (trust this machine's "
            + "clock) or a number of milliseconds to add to this machine's clock");
      }
    }
    if (startAt.isPresent() && barrier.isPresent()) {
      throw new IllegalArgumentException("give " + START_AT_PROPERTY + " or " + BARRIER_PROPERTY
          + ", not both: the start is either an instant or the moment all injectors are ready");
    }
    if (probes < 1) {
      throw new IllegalArgumentException(PROBES_PROPERTY + " must be >= 1, got " + probes);
    }
  }

  /** The settings of this JVM (system properties, then environment). */
  public static ScaleOut current() {
    Map<String, String> props = new HashMap<>();
    System.getProperties().forEach((k, v) -> props.put(String.valueOf(k), String.valueOf(v)));
    return from(props, System.getenv());
  }

  /**
   * The settings from these properties and environment.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static ScaleOut from(Map<String, String> props, Map<String, String> env) {
    InjectorShare share = InjectorShare.from(props, env);
    String start = value(props, START_AT_PROPERTY, env, "LLM_START_AT");
    Optional<Instant> startAt = Optional.empty();
    if (start != null) {
      try {
        startAt = Optional.of(Instant.parse(start.trim()));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(START_AT_PROPERTY + " '" + start + "' is not an "
            + "ISO-8601 instant such as 2026-11-23T06:30:00Z");
      }
    }
    String folder = value(props, BARRIER_PROPERTY, env, "LLM_START_BARRIER");
    Optional<Path> barrier = folder == null ? Optional.empty() : Optional.of(Path.of(folder.trim()));
    String clock = value(props, CLOCK_PROPERTY, env, "LLM_CLOCK_OFFSET");
    String probes = value(props, PROBES_PROPERTY, env, "LLM_CLOCK_PROBES");
    int probeCount;
    try {
      probeCount = probes == null ? DateHeaderClock.DEFAULT_PROBES : Integer.parseInt(probes.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PROBES_PROPERTY + " '" + probes + "' is not a number");
    }
    boolean requested = share.isSplit() || startAt.isPresent() || barrier.isPresent()
        || value(props, INJECTOR_PROPERTY, env, "LLM_INJECTOR") != null
        || (env.get("JOB_COMPLETION_INDEX") != null
            && value(props, INJECTORS_PROPERTY, env, "LLM_INJECTORS") != null);
    return new ScaleOut(share, startAt, barrier, clock == null ? "date" : clock.trim(), probeCount,
        requested);
  }

  private static String value(Map<String, String> props, String property,
      Map<String, String> env, String variable) {
    String v = props.get(property);
    if (v == null || v.isBlank()) {
      v = env.get(variable);
    }
    return v == null || v.isBlank() ? null : v;
  }

  /**
   * Eight hex digits the injectors of one scaled-out benchmark share and another benchmark's
   * most likely do not: from the injector count and the common start (instant or barrier
   * folder), not from the injector's index. Names what each injector would otherwise draw at
   * random, such as the request-id prefix, so that they all sample the same requests.
   */
  public String sharedKey() {
    return digest(List.of("injectors=" + share.count(),
        "start=" + startAt.map(Object::toString).orElse("none"),
        "barrier=" + barrier.map(p -> p.toAbsolutePath().normalize().toString()).orElse("none")))
        .substring(0, 8);
  }

  /**
   * Notes the digest of the dataset sample this JVM feeds (see
   * {@code dataset.Samples#digest()}); it becomes part of the settings hash, so injectors that
   * sampled different prompts are refused by the merge.
   */
  public static void noteDataset(String digest) {
    datasetDigest = digest;
  }

  /** The digest noted by {@link #noteDataset}, if any. */
  public static Optional<String> dataset() {
    return Optional.ofNullable(datasetDigest);
  }

  /**
   * SHA-256 (hex) of the parts, each written as {@code <UTF-8 length>:<bytes>\n}, so that no
   * two lists of parts give the same input.
   */
  public static String digest(Iterable<String> parts) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        sha.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
        sha.update(bytes);
        sha.update((byte) '\n');
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
