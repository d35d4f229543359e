package dev.gatlingllm.bench;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How promptly this machine wakes the client's core: the floor under every figure of the
 * client-truth benchmark.
 *
 * <p>A chunk reaches a client that sleeps in {@code epoll} between chunks. On a virtual machine
 * whose idle CPUs halt (no guest idle driver), waking that core goes through the host, and
 * the time it takes is the host's, not the client's: it was tens of microseconds at the median
 * and milliseconds at the tail on the same VM class on different days. So the benchmark
 * measures it before and after its ladder and prints it beside the table: a message over
 * loopback every millisecond, from the benchmark's core to a thread blocked in a socket read
 * on the client's core, and the time from its write to its read.
 *
 * <p>Run as a child process ({@link #main}) on the client's core; {@link #measure} is the
 * sending side.
 */
final class WakeProbe {

  static final int MESSAGES = 3000;
  static final long GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private WakeProbe() {}

  /**
   * Sends {@code messages} stamps ({@link #MESSAGES} in the benchmark) to a child on the
   * client's core and returns its summary line, or why there is none. Never throws: the
   * ladder goes on without it.
   */
  static String measure(boolean pinned, String classpath, int messages) {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<String> command = new ArrayList<>(ClientTruthBenchmark.onCore(pinned, 1));
      command.addAll(List.of(ClientTruthBenchmark.JAVA, "-cp", classpath,
          WakeProbe.class.getName(), Integer.toString(server.getLocalPort()),
          Integer.toString(messages)));
      Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
      server.setSoTimeout(30_000);
      try (Socket socket = server.accept();
          DataOutputStream out = new DataOutputStream(socket.getOutputStream())) {
        socket.setTcpNoDelay(true);
        for (int i = 0; i < messages; i++) {
          LockSupport.parkNanos(GAP_NANOS);
          out.writeLong(System.nanoTime());
          out.flush();
        }
      }
      BufferedReader lines = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line = lines.readLine();
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
      return line == null ? "no answer from the probe" : line;
    } catch (IOException | RuntimeException e) {
      return "not measured: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "not measured: interrupted";
    }
  }

  /** The receiving side: {@code port count}; prints one summary line. */
  public static void main(String[] args) throws IOException {
    int count = Integer.parseInt(args[1]);
    double[] micros = new double[count];
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
        DataInputStream in = new DataInputStream(socket.getInputStream())) {
      for (int i = 0; i < count; i++) {
        long sent = in.readLong();
        micros[i] = (System.nanoTime() - sent) / 1_000.0;
      }
    }
    System.out.println(summary(micros));
  }

  /**
   * One line from the delays (µs) of every message. The first tenth is left out: the child's
   * JVM is still interpreting its read loop then.
   */
  static String summary(double[] micros) {
    int skip = micros.length / 10;
    double[] kept = Arrays.copyOfRange(micros, skip, micros.length);
    Arrays.sort(kept);
    return String.format(Locale.ROOT,
        "wake-up of the client's core (loopback message to a blocked read, %d of %d messages "
            + "1 ms apart): p50 %.0f, p90 %.0f, p99 %.0f, max %.0f µs",
        kept.length, micros.length, Stats.percentile(kept, 50), Stats.percentile(kept, 90),
        Stats.percentile(kept, 99), kept.length == 0 ? Double.NaN : kept[kept.length - 1]);
  }
}
