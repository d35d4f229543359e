package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Reads a {@link RecordLog}, complete or cut at any byte. What a crash can leave at the end
 * (a frame cut short, or bytes that fail their CRC) ends the reading: everything before it is
 * kept and {@link Contents#droppedBytes()} says how much was not. A file that is not a record
 * log, or one of another format version, is refused with a message that says so.
 */
public final class RecordLogReader {

  private static final int FRAME_OVERHEAD = 9;

  private RecordLogReader() {}

  /**
   * What a record log holds.
   *
   * @param settings     the latest settings: the end marker's when {@code complete}, else the
   *                     last changed ones (or the header's)
   * @param records      the requests, in the order they were written (completion order)
   * @param complete     whether the log ends with its end marker (the run finished)
   * @param droppedBytes bytes at the end that were not a whole, intact frame
   */
  public record Contents(RunSettings settings, List<RequestRecord> records, boolean complete,
      long droppedBytes) {

    /** The records as a {@link RecordSource}, texts included. */
    public RecordSource source() {
      return RecordSource.of(records);
    }
  }

  /**
   * Reads the log at {@code file}.
   *
   * @throws IllegalArgumentException when it is not a record log, of another version, or its
   *                                  header is damaged
   * @throws UncheckedIOException     when it cannot be read (with the path in the message)
   */
  public static Contents read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new UncheckedIOException("no record log at " + file, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the record log " + file + ": " + e, e);
    }
    return read(bytes, file.toString());
  }

  public static Contents read(byte[] bytes, String name) {
    byte[] magic = RecordLog.MAGIC;
    int prefix = Math.min(bytes.length, magic.length);
    if (bytes.length < magic.length + 1
        && Arrays.equals(bytes, 0, prefix, magic, 0, prefix)) {
      throw new IllegalArgumentException(name + " was cut before its header was written ("
          + bytes.length + " bytes); nothing can be recovered from it");
    }
    if (bytes.length < magic.length + 1
        || !Arrays.equals(bytes, 0, magic.length, magic, 0, magic.length)) {
      throw new IllegalArgumentException(name + " is not a gatling-llm record log (it does not "
          + "start with " + new String(magic, java.nio.charset.StandardCharsets.US_ASCII) + ")");
    }
    int version = bytes[magic.length] & 0xFF;
    if (version != RecordLog.VERSION) {
      throw new IllegalArgumentException(name + " is a gatling-llm record log of format version "
          + version + ", but this gatling-llm reads version " + RecordLog.VERSION
          + ": recover it with the gatling-llm version that wrote it");
    }
    int pos = magic.length + 1;
    RunSettings settings = null;
    List<RequestRecord> records = new ArrayList<>();
    boolean complete = false;
    while (pos < bytes.length && !complete) {
      int end = frameEnd(bytes, pos);
      if (end < 0) {
        break;
      }
      byte type = bytes[pos];
      int start = pos + 5;
      int length = end - 4 - start;
      if (settings == null && type != RecordLog.HEADER) {
        throw new IllegalArgumentException(name + ": the record log's header is missing");
      }
      switch (type) {
        case RecordLog.HEADER, RecordLog.SETTINGS, RecordLog.END ->
            settings = settings(bytes, start, length, name);
        case RecordLog.RECORD -> records.add(record(bytes, start, length, name, records.size()));
        default -> throw new IllegalArgumentException(name + ": unknown frame type '"
            + (char) type + "' at byte " + pos);
      }
      complete = type == RecordLog.END;
      pos = end;
    }
    if (settings == null) {
      throw new IllegalArgumentException(name + ": the record log's header is cut short or "
          + "damaged; nothing can be recovered from it");
    }
    return new Contents(settings, records, complete, bytes.length - pos);
  }

  /** The end of the intact frame at {@code pos}, or -1 when it is cut short or damaged. */
  private static int frameEnd(byte[] bytes, int pos) {
    if (bytes.length - pos < FRAME_OVERHEAD) {
      return -1;
    }
    long length = ((bytes[pos + 1] & 0xFFL) << 24) | ((bytes[pos + 2] & 0xFF) << 16)
        | ((bytes[pos + 3] & 0xFF) << 8) | (bytes[pos + 4] & 0xFF);
    if (length > bytes.length - pos - FRAME_OVERHEAD) {
      return -1;
    }
    int end = pos + 5 + (int) length + 4;
    CRC32 crc = new CRC32();
    crc.update(bytes, pos, 5 + (int) length);
    int stored = ((bytes[end - 4] & 0xFF) << 24) | ((bytes[end - 3] & 0xFF) << 16)
        | ((bytes[end - 2] & 0xFF) << 8) | (bytes[end - 1] & 0xFF);
    return (int) crc.getValue() == stored ? end : -1;
  }

  private static RunSettings settings(byte[] bytes, int start, int length, String name) {
    try {
      Map<String, Object> json = RunSettingsJson.parse(Arrays.copyOfRange(bytes, start,
          start + length));
      return RunSettingsJson.read(json);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(name + ": the run settings in the record log cannot be "
          + "read (" + e.getMessage() + ")", e);
    }
  }

  private static RequestRecord record(byte[] bytes, int start, int length, String name, int index) {
    try {
      return RecordCodec.decode(bytes, start, length);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(name + ": record " + index + " passed its CRC but "
          + "cannot be decoded (" + e.getMessage() + ")", e);
    }
  }
}
