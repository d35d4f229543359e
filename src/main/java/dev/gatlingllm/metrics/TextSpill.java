package dev.gatlingllm.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
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
 */
final class TextSpill implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TextSpill.class);
  static final int BUFFER_BYTES = 1 << 20;

  private final Path directory;
  private final ExecutorService writer;
  private ByteBuffer current = ByteBuffer.allocate(BUFFER_BYTES);
  private long appended;
  private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);
  // written on the writer thread; volatile so readers see them after a completed flush
  private volatile FileChannel channel;
  private volatile Path file;
  private volatile IOException failure;

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
    lastWrite = CompletableFuture.runAsync(() -> write(buffer), writer);
  }

  private void write(ByteBuffer buffer) {
    if (failure != null) {
      return;
    }
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
      LOG.warn("Could not write generated texts to {}: {}; texts after this point are lost",
          directory, e.toString());
    }
  }

  /**
   * Reads a text back; call only for offsets covered by a completed {@link #flushAsync()}.
   * Null when writing failed.
   */
  String read(long offset, int length) {
    if (failure != null && (channel == null || offset + length > fileSize())) {
      return null;
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

  private long fileSize() {
    try {
      return channel.size();
    } catch (IOException e) {
      return -1;
    }
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
