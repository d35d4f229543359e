package dev.gatlingllm.internal.scale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A start barrier over a folder the injectors share (the Kubernetes volume their record logs
 * go to, an NFS mount): each injector, once ready (clock measured, scenario built, warm-up
 * done), writes {@code ready-K-of-N} with the benchmark's settings hash and its ready time
 * on the reference clock; when all {@code N} files are there, every injector computes the
 * same start, the latest ready time plus {@value #MARGIN_MILLIS} ms, and starts its arrival
 * schedule then. Unlike a fixed {@code llm.startAt}, it cannot be missed by an injector that
 * was slow to start.
 *
 * <p>Use a fresh folder per run: ready files of another benchmark are refused, and so are
 * ready files older than the barrier's timeout (an earlier run's).
 */
final class StartBarrier {

  /** How long an injector waits for the others before giving up. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
  /** Time from the last injector's ready to the start: polling, Gatling's start, the lead. */
  static final long MARGIN_MILLIS = 3_000;
  private static final long POLL_NANOS = 50_000_000L;

  private StartBarrier() {}

  /**
   * Announces this injector ready and waits until all are.
   *
   * @param settingsHash  the benchmark's settings hash: every ready file must carry it
   * @param referenceNow  the reference clock, epoch nanoseconds
   * @return the common start on the reference clock
   * @throws IllegalStateException when the others are not ready in time, or the folder holds
   *                               another benchmark's or an earlier run's ready files
   */
  public static Instant await(Path folder, InjectorShare share, String settingsHash,
      LongSupplier referenceNow, Duration timeout) {
    long ready = referenceNow.getAsLong();
    try {
      Files.createDirectories(folder);
      Path mine = folder.resolve(name(share.index(), share.count()));
      Path tmp = folder.resolve("." + mine.getFileName() + ".tmp");
      Files.writeString(tmp, settingsHash + " " + ready + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(tmp, mine, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, mine, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write this injector's ready file into the start "
          + "barrier " + folder + ": " + e, e);
    }
    long deadline = ready + timeout.toNanos();
    while (true) {
      List<Integer> missing = new ArrayList<>();
      long latest = Long.MIN_VALUE;
      for (int k = 0; k < share.count(); k++) {
        long time = readyTime(folder.resolve(name(k, share.count())), settingsHash, ready,
            timeout);
        if (time == Long.MIN_VALUE) {
          missing.add(k);
        } else {
          latest = Math.max(latest, time);
        }
      }
      if (missing.isEmpty()) {
        long start = latest + MARGIN_MILLIS * 1_000_000L;
        return Instant.ofEpochSecond(Math.floorDiv(start, 1_000_000_000L),
            Math.floorMod(start, 1_000_000_000L));
      }
      if (referenceNow.getAsLong() > deadline) {
        throw new IllegalStateException("start barrier " + folder + ": injector(s) "
            + missing.stream().map(k -> k + "/" + share.count()).toList() + " not ready after "
            + timeout.toSeconds() + " s; did they start, and do they share this folder?");
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }

  static String name(int index, int count) {
    return "ready-" + index + "-of-" + count;
  }

  /** The ready time in {@code file}; MIN_VALUE while it is not there. */
  private static long readyTime(Path file, String settingsHash, long ownReady, Duration timeout) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (NoSuchFileException e) {
      return Long.MIN_VALUE;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e, e);
    }
    String[] parts = text.split(" ");
    if (parts.length != 2) {
      throw new IllegalStateException(file + " is not a ready file of gatling-llm's start "
          + "barrier: give each run a fresh, empty barrier folder");
    }
    if (!parts[0].equals(settingsHash)) {
      throw new IllegalStateException(file + " is another benchmark's (settings "
          + parts[0].substring(0, Math.min(12, parts[0].length())) + ", this one's "
          + settingsHash.substring(0, Math.min(12, settingsHash.length())) + "): every "
          + "injector must run the same benchmark; give each run a fresh barrier folder");
    }
    long time = Long.parseLong(parts[1]);
    if (ownReady - time > timeout.toNanos()) {
      throw new IllegalStateException(file + " was written " + Duration.ofNanos(ownReady - time)
          .toSeconds() + " s ago, longer than the barrier's timeout: an earlier run's; give "
          + "each run a fresh barrier folder");
    }
    return time;
  }
}
