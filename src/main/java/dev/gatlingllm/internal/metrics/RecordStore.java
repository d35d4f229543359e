package dev.gatlingllm.internal.metrics;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Collects the records of one run. {@link #add} is called from several Netty event loops
 * and never blocks on I/O; everything else is for after the run.
 *
 * <p>Memory: a record keeps its timings and its {@code int[]} of chunk arrival offsets
 * (4 bytes per content chunk) on the heap. Generated texts stay on the heap until
 * {@code maxHeapTextChars} characters are held; later texts go to a temp file (written by a
 * background thread) and are read back on demand through {@link Snapshot#text}. Call
 * {@link #close()} when done to delete that file.
 */
public final class RecordStore implements AutoCloseable {

  /** Generated-text characters kept on the heap before texts spill to disk: 32 Mi. */
  public static final long DEFAULT_MAX_HEAP_TEXT_CHARS = 32L << 20;

  private final long maxHeapTextChars;
  private final TextSpill spill;

  private RequestRecord[] records = new RequestRecord[1024];
  // per record: offset of its spilled text, or -1 when the record holds its text itself
  private long[] spillOffsets = new long[1024];
  private int[] spillLengths = new int[1024];
  private int size;
  private long heapTextChars;
  private volatile boolean heapFull;
  private boolean closed;
  private volatile Consumer<RequestRecord> mirror = r -> { };

  /** A store keeping up to {@link #DEFAULT_MAX_HEAP_TEXT_CHARS} on the heap, spilling to the temp dir. */
  public RecordStore() {
    this(DEFAULT_MAX_HEAP_TEXT_CHARS, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /**
   * @param maxHeapTextChars generated-text characters kept on the heap; 0 spills every text
   * @param spillDirectory   where the spill file is created (only once something spills)
   */
  public RecordStore(long maxHeapTextChars, Path spillDirectory) {
    if (maxHeapTextChars < 0) {
      throw new IllegalArgumentException("maxHeapTextChars must be >= 0, got " + maxHeapTextChars);
    }
    this.maxHeapTextChars = maxHeapTextChars;
    this.spill = new TextSpill(Objects.requireNonNull(spillDirectory, "spillDirectory"));
  }

  /**
   * Hands every record added from now on to {@code sink} too, in the store's order, as it is
   * added (under the store's lock, on the adding thread: the sink must only queue it). The
   * run's record log mirrors the store this way.
   */
  public void mirrorTo(Consumer<RequestRecord> sink) {
    mirror = Objects.requireNonNull(sink, "sink");
  }

  /** Adds a finished request. Thread-safe, non-blocking apart from a short lock. */
  public void add(RequestRecord record) {
    Objects.requireNonNull(record, "record");
    String text = record.generatedText();
    // once texts spill, all later ones do: encode those outside the lock
    byte[] utf8 = text != null && heapFull ? text.getBytes(StandardCharsets.UTF_8) : null;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("RecordStore is closed");
      }
      mirror.accept(record);
      if (size == records.length) {
        int grown = size + (size >> 1);
        records = Arrays.copyOf(records, grown);
        spillOffsets = Arrays.copyOf(spillOffsets, grown);
        spillLengths = Arrays.copyOf(spillLengths, grown);
      }
      if (text != null && (heapFull || heapTextChars + text.length() > maxHeapTextChars)) {
        heapFull = true;
        if (utf8 == null) {
          utf8 = text.getBytes(StandardCharsets.UTF_8);
        }
        spillOffsets[size] = spill.append(utf8);
        spillLengths[size] = utf8.length;
        records[size++] = record.withGeneratedText(null);
      } else {
        spillOffsets[size] = -1;
        heapTextChars += text == null ? 0 : text.length();
        records[size++] = record;
      }
    }
  }

  public synchronized int size() {
    return size;
  }

  /** Bytes of generated text written to the spill file so far. */
  public synchronized long spilledTextBytes() {
    return spill.size();
  }

  /**
   * The records added so far, in completion order, with their texts readable. Waits until
   * spilled texts are on disk. Records added later are not part of the snapshot.
   */
  public Snapshot snapshot() {
    Snapshot snap;
    CompletableFuture<Void> flushed;
    synchronized (this) {
      // arrays are only ever replaced, never changed below size: sharing them is safe
      snap = new Snapshot(this, records, spillOffsets, spillLengths, size);
      flushed = spill.flushAsync();
    }
    try {
      flushed.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while writing generated texts", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Could not write generated texts", e.getCause());
    }
    return snap;
  }

  /** Deletes the spill file; the store and its snapshots cannot read spilled texts after this. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    spill.close();
  }

  /** A fixed view of the records of a {@link RecordStore} at one point in time. */
  public static final class Snapshot implements RecordSource {

    private final RecordStore store;
    private final RequestRecord[] records;
    private final long[] spillOffsets;
    private final int[] spillLengths;
    private final int size;

    private Snapshot(RecordStore store, RequestRecord[] records, long[] spillOffsets,
        int[] spillLengths, int size) {
      this.store = store;
      this.records = records;
      this.spillOffsets = spillOffsets;
      this.spillLengths = spillLengths;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    /** The record as stored: {@code generatedText()} is null when its text was spilled. */
    @Override
    public RequestRecord record(int index) {
      return records[Objects.checkIndex(index, size)];
    }

    @Override
    public String text(int index) {
      Objects.checkIndex(index, size);
      long offset = spillOffsets[index];
      if (offset < 0) {
        return records[index].generatedText();
      }
      return store.spill.read(offset, spillLengths[index]);
    }
  }
}
