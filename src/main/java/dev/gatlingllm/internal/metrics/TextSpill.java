package dev.gatlingllm.internal.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only temp file of UTF-8 texts. Appends only copy into a memory buffer (they run
 * on Netty event loops, which must not block); full buffers are written by one background
 * thread, in order, so a text's offset is known as soon as it is appended.
 * Not thread-safe for appends: the owner serialises them.
 *
 * <p>When the file cannot be written (disk full, no such folder), the buffers that did not
 * make it stay in memory and are read from there: the texts, and the output tokens counted
 * from them, stay right at the cost of heap, and an error says so once.
 */
final class TextSpill implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TextSpill.class);
  static final int BUFFER_BYTES = 1 << 20;

  private final Path directory;
  private final ExecutorService writer;
  private ByteBuffer current = ByteBuffer.allocate(BUFFER_BYTES);
  private long appended;
  /** Bytes handed to the writer: {@code appended} minus what {@code current} holds. */
  private long submitted;
  private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);
  // written on the writer thread; volatile so readers see them after a completed flush
  private volatile FileChannel channel;
  private volatile Path file;
  private volatile IOException failure;
  /** Buffers that could not be written, by the offset of their first byte. */
  private final ConcurrentSkipListMap<Long, ByteBuffer> unwritten = new ConcurrentSkipListMap<>();

  TextSpill(Path directory) {
    this.directory = directory;
    this.writer = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "gatling-llm-text-spill");
      t.setDaemon(true);
      return t;
    });
  }

  /** Queues the text; returns its offset in the file. */
  long append(byte[] utf8) {
    long offset = appended;
    if (utf8.length > current.remaining()) {
      submitCurrent();
      if (utf8.length > current.remaining()) {
        submit(ByteBuffer.wrap(utf8));
        appended += utf8.length;
        return offset;
      }
    }
    current.put(utf8);
    appended += utf8.length;
    return offset;
  }

  /** Bytes appended so far. */
  long size() {
    return appended;
  }

  /** Hands the partial buffer to the writer; the future completes when all is on disk. */
  CompletableFuture<Void> flushAsync() {
    submitCurrent();
    return lastWrite;
  }

  private void submitCurrent() {
    if (current.position() == 0) {
      return;
    }
    current.flip();
    submit(current);
    current = ByteBuffer.allocate(BUFFER_BYTES);
  }

  private void submit(ByteBuffer buffer) {
    long offset = submitted;
    submitted += buffer.remaining();
    lastWrite = CompletableFuture.runAsync(() -> write(buffer, offset), writer);
  }

  private void write(ByteBuffer buffer, long offset) {
    if (failure != null) {
      unwritten.put(offset, buffer);
      return;
    }
    ByteBuffer whole = buffer.duplicate();
    try {
      if (channel == null) {
        Files.createDirectories(directory);
        file = Files.createTempFile(directory, "gatling-llm-texts-", ".bin");
        file.toFile().deleteOnExit();
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
      }
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      failure = e;
      unwritten.put(offset, whole);
      LOG.error("Could not write generated texts to a spill file in {}: {}; from now on they "
          + "are kept in memory, and the heap grows with every text", directory, e.toString());
    }
  }

  /** Reads a text back; call only for offsets covered by a completed {@link #flushAsync()}. */
  String read(long offset, int length) {
    Map.Entry<Long, ByteBuffer> kept = unwritten.floorEntry(offset);
    if (kept != null && offset + length <= kept.getKey() + kept.getValue().limit()) {
      byte[] bytes = new byte[length];
      kept.getValue().get((int) (offset - kept.getKey()), bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }
    if (channel == null) {
      throw new IllegalStateException("generated text at offset " + offset
          + " was neither written nor kept");
    }
    ByteBuffer buf = ByteBuffer.allocate(length);
    try {
      while (buf.hasRemaining()) {
        int n = channel.read(buf, offset + buf.position());
        if (n < 0) {
          return null;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read generated text back from " + file, e);
    }
    return new String(buf.array(), StandardCharsets.UTF_8);
  }

  /** Stops the writer and deletes the file. */
  @Override
  public void close() {
    writer.shutdown();
    try {
      writer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (channel != null) {
        channel.close();
      }
      if (file != null) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      LOG.warn("Could not delete the generated-text spill file {}: {}", file, e.toString());
    }
  }
}
