package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.report.Recover;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's record log: every finished request, appended as it finishes, to a file that a
 * crashed run leaves behind ({@link Recover} reports from it). {@link #append} only puts the
 * record in a lock-free queue (it runs on Netty event loops); one writer thread encodes and
 * writes the queue every {@value #FLUSH_MILLIS} ms, and writes the run's settings again
 * whenever they changed (the arrival clock's start, for instance, is only known once the run
 * is under way).
 *
 * <p>Format, version {@value #VERSION}: the magic {@code GLLMREC} and one version byte, then
 * frames of {@code type (1 byte) | payload length (4 bytes, big-endian) | payload | CRC-32 of
 * the previous three (4 bytes)}. Types: {@code H} header (run settings as JSON, first frame),
 * {@code S} changed settings (JSON), {@code R} one request ({@link RecordCodec}), {@code E}
 * end marker (the final settings as JSON, with the record count). A frame cut short or with
 * a wrong CRC ends what can be read.
 *
 * <p>When the file cannot be written, an error is logged once and the log stops: the run and
 * its normal results do not depend on it.
 */
public final class RecordLog implements AutoCloseable {

  /** The log's file name in the run folder. */
  public static final String FILE_NAME = "llm-records.bin";
  static final byte[] MAGIC = "GLLMREC".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final byte HEADER = 'H';
  static final byte SETTINGS = 'S';
  static final byte RECORD = 'R';
  static final byte END = 'E';
  static final long FLUSH_MILLIS = 200;

  private static final Logger LOG = LoggerFactory.getLogger(RecordLog.class);

  private final Path file;
  private final FileChannel channel;
  private final Supplier<RunSettings> settings;
  private final ConcurrentLinkedQueue<RequestRecord> queue = new ConcurrentLinkedQueue<>();
  private final Thread writer;
  private final ByteArrayOutputStream frames = new ByteArrayOutputStream(1 << 16);
  private final ByteArrayOutputStream payload = new ByteArrayOutputStream(1 << 12);
  private final CRC32 crc = new CRC32();
  private volatile boolean stopping;
  private boolean failed;
  private boolean finished;
  private long written;
  private byte[] lastSettings;

  private RecordLog(Path file, FileChannel channel, Supplier<RunSettings> settings) {
    this.file = file;
    this.channel = channel;
    this.settings = settings;
    this.writer = new Thread(this::writeLoop, "gatling-llm-record-log");
    writer.setDaemon(true);
  }

  /**
   * Creates the log in {@code folder} ({@value #FILE_NAME}, or {@code llm-records-2.bin} and
   * so on when taken), writes its header and starts its writer.
   *
   * @param settings the run's settings as they are now; asked again at every flush
   * @throws IOException when the file cannot be created or its header written
   */
  public static RecordLog create(Path folder, Supplier<RunSettings> settings) throws IOException {
    Files.createDirectories(folder);
    for (int n = 1; ; n++) {
      Path file = folder.resolve(n == 1 ? FILE_NAME : "llm-records-" + n + ".bin");
      FileChannel channel;
      try {
        channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException taken) {
        continue;
      }
      RecordLog log = new RecordLog(file, channel, settings);
      try {
        log.frames.write(MAGIC);
        log.frames.write(VERSION);
        log.writeSettings(HEADER, settings.get(), Map.of("format_version", VERSION));
        log.flush();
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e instanceof IOException io ? io : new IOException(e.toString(), e);
      }
      log.writer.start();
      return log;
    }
  }

  public Path file() {
    return file;
  }

  /** Queues a finished request. Never blocks; called on event loops. */
  public void append(RequestRecord record) {
    queue.offer(record);
  }

  /**
   * Writes every queued record, then the end marker with {@code last} (the settings the
   * normal report is made with), forces the file to the disk and closes it. Records appended
   * after this are not written.
   */
  public void finish(RunSettings last) {
    end(last);
  }

  /**
   * Writes what is queued and the current settings, and closes the file without an end
   * marker (a run that failed before its report).
   */
  @Override
  public void close() {
    end(null);
  }

  /**
   * Stops the writer, writes what is queued and a last settings frame, then closes the file,
   * once: with {@code last}, the end marker with the record count, forced to the disk;
   * without (null), the current settings and no end marker.
   */
  private void end(RunSettings last) {
    stopWriter();
    synchronized (this) {
      if (finished) {
        return;
      }
      finished = true;
      try {
        if (!failed) {
          drain();
          if (last != null) {
            writeSettings(END, last, Map.of("records", written));
          } else {
            writeSettings(SETTINGS, settings.get(), Map.of());
          }
          flush();
          if (last != null) {
            channel.force(true);
          }
        }
      } catch (IOException | RuntimeException e) {
        fail(e);
      } finally {
        closeChannel();
      }
    }
  }


  /** Records written to the file so far. */
  public synchronized long written() {
    return written;
  }

  /** Whether writing failed (already logged); the log then holds only what came before. */
  public synchronized boolean failed() {
    return failed;
  }

  private void stopWriter() {
    stopping = true;
    LockSupport.unpark(writer);
    try {
      writer.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void writeLoop() {
    while (!stopping) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(FLUSH_MILLIS));
      synchronized (this) {
        if (finished || failed) {
          queue.clear();
          continue;
        }
        try {
          drain();
          RunSettings now = settings.get();
          writeSettings(SETTINGS, now, Map.of());
          flush();
        } catch (IOException | RuntimeException e) {
          fail(e);
        }
      }
    }
  }

  private void drain() {
    for (RequestRecord r = queue.poll(); r != null; r = queue.poll()) {
      payload.reset();
      RecordCodec.encode(r, payload);
      frame(RECORD, payload);
      written++;
    }
  }

  /** Writes a settings frame; a changed-settings frame only when they changed. */
  private void writeSettings(byte type, RunSettings s, Map<String, Object> more) {
    byte[] bytes = RunSettingsJson.write(s, more);
    if (type == SETTINGS && Arrays.equals(bytes, lastSettings)) {
      return;
    }
    if (type != END) {
      lastSettings = type == HEADER ? RunSettingsJson.write(s, Map.of()) : bytes;
    }
    payload.reset();
    payload.write(bytes, 0, bytes.length);
    frame(type, payload);
  }

  private void frame(byte type, ByteArrayOutputStream body) {
    int length = body.size();
    byte[] head = {type, (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
        (byte) length};
    crc.reset();
    crc.update(head);
    frames.write(head, 0, head.length);
    byte[] bytes = body.toByteArray();
    crc.update(bytes);
    frames.write(bytes, 0, bytes.length);
    int sum = (int) crc.getValue();
    frames.write(sum >>> 24);
    frames.write(sum >>> 16);
    frames.write(sum >>> 8);
    frames.write(sum);
  }

  private void flush() throws IOException {
    if (frames.size() == 0) {
      return;
    }
    ByteBuffer buf = ByteBuffer.wrap(frames.toByteArray());
    frames.reset();
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
  }

  private void fail(Exception e) {
    failed = true;
    queue.clear();
    frames.reset();
    LOG.error("could not write the record log {}: {}; it stops here (the results are still "
        + "written at the end of the run, but a crash would lose them)", file, e.toString());
  }

  private void closeChannel() {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.warn("could not close the record log {}: {}", file, e.toString());
    }
  }
}
