package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Queue;
import java.util.function.Consumer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads the rows of a local Parquet file as plain Java values: strings, numbers, booleans,
 * {@code List}s for LIST columns and {@code Map}s for structs and MAP columns.
 *
 * <p>Only public parquet-java API is used, and no Hadoop: the footer is decoded by
 * {@link ParquetMetadataConverter}, each requested column chunk is read from the file with a
 * {@link FileChannel}, its page headers are decoded by parquet-format's {@link Util}, pages are
 * decompressed by {@link PlainCodecs}, and the pages are handed to parquet-column's record
 * assembly ({@link ColumnIOFactory}) through a small {@link PageReadStore}. parquet-java's own
 * {@code ParquetFileReader} is not used: every public way to configure it builds Hadoop's
 * codec factory and filter classes, which would need the Hadoop jars.
 */
final class ParquetRows {

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);
  private static final ParquetMetadataConverter CONVERTER = new ParquetMetadataConverter();

  private ParquetRows() {}

  /** Names of the file's top-level columns. */
  static List<String> columns(Path file) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      return footer(channel).getFileMetaData().getSchema().getFields().stream()
          .map(Type::getName).toList();
    } catch (DatasetException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw unreadable(file, e);
    }
  }

  /**
   * Gives each row to {@code sink}, with only the requested top-level columns (all of them
   * when {@code columns} is empty); only those columns are read from disk.
   */
  static void read(Path file, Collection<String> columns, Consumer<Map<String, Object>> sink) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ParquetMetadata footer = footer(channel);
      MessageType schema = footer.getFileMetaData().getSchema();
      MessageType requested = schema;
      if (!columns.isEmpty()) {
        List<Type> fields = new ArrayList<>();
        for (Type field : schema.getFields()) {
          if (columns.contains(field.getName())) {
            fields.add(field);
          }
        }
        requested = new MessageType(schema.getName(), fields);
      }
      ColumnIOFactory io = new ColumnIOFactory();
      for (BlockMetaData block : footer.getBlocks()) {
        RowGroup pages = new RowGroup(channel, block, requested);
        RecordReader<Group> records = io.getColumnIO(requested, schema)
            .getRecordReader(pages, new GroupRecordConverter(requested));
        for (long i = 0; i < block.getRowCount(); i++) {
          sink.accept(struct(records.read()));
        }
      }
    } catch (DatasetException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw unreadable(file, e);
    }
  }

  /** The file's metadata, from the footer: {@code <metadata> <4-byte length> PAR1}. */
  private static ParquetMetadata footer(FileChannel channel) throws IOException {
    long size = channel.size();
    if (size < 12) {
      throw new IOException("the file has " + size + " bytes, too short for Parquet");
    }
    ByteBuffer tail = readAt(channel, size - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[4];
    tail.position(4);
    tail.get(magic);
    if (Arrays.equals(magic, ENCRYPTED_MAGIC)) {
      throw new IOException("the file is encrypted, which is not supported");
    }
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException("no Parquet magic number at the end of the file");
    }
    int length = tail.getInt(0);
    if (length <= 0 || length > size - 12) {
      throw new IOException("footer length " + length + " does not fit in the file");
    }
    ByteBuffer meta = readAt(channel, size - 8 - length, length);
    return CONVERTER.readParquetMetadata(new ByteArrayInputStream(meta.array()),
        ParquetMetadataConverter.NO_FILTER);
  }

  private static ByteBuffer readAt(FileChannel channel, long position, int length)
      throws IOException {
    if (position < 0 || position + length > channel.size()) {
      throw new IOException("byte range " + position + "+" + length + " lies outside the file");
    }
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw new IOException("unexpected end of file at " + (position + buffer.position()));
      }
    }
    return buffer.flip();
  }

  /** The pages of one row group's requested columns, decoded on demand, column by column. */
  private static final class RowGroup implements PageReadStore {
    private final FileChannel channel;
    private final BlockMetaData block;
    private final Map<ColumnPath, ColumnChunkMetaData> chunks = new HashMap<>();

    RowGroup(FileChannel channel, BlockMetaData block, MessageType requested) {
      this.channel = channel;
      this.block = block;
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        chunks.put(chunk.getPath(), chunk);
      }
      for (ColumnDescriptor column : requested.getColumns()) {
        if (!chunks.containsKey(ColumnPath.get(column.getPath()))) {
          throw new DatasetException("Parquet row group has no data for column "
              + String.join(".", column.getPath()));
        }
      }
    }

    @Override
    public PageReader getPageReader(ColumnDescriptor descriptor) {
      ColumnChunkMetaData chunk = chunks.get(ColumnPath.get(descriptor.getPath()));
      try {
        return pages(chunk, descriptor);
      } catch (IOException e) {
        throw new IllegalStateException("column " + chunk.getPath() + ": " + e.getMessage(), e);
      }
    }

    @Override
    public long getRowCount() {
      return block.getRowCount();
    }

    @Override
    public Optional<PrimitiveIterator.OfLong> getRowIndexes() {
      return Optional.empty();
    }

    private PageReader pages(ColumnChunkMetaData chunk, ColumnDescriptor descriptor)
        throws IOException {
      long size = chunk.getTotalSize();
      if (size > Integer.MAX_VALUE - 16) {
        throw new IOException("column chunk of " + size + " bytes is too large");
      }
      ByteBuffer bytes = readAt(channel, chunk.getStartingPos(), (int) size);
      InputStream in = new ByteArrayInputStream(bytes.array());
      BytesInputDecompressor codec = new PlainCodecs().getDecompressor(chunk.getCodec());
      Statistics<?> noStats = Statistics.noopStats(descriptor.getPrimitiveType());
      DictionaryPage dictionary = null;
      Queue<DataPage> data = new ArrayDeque<>();
      long values = 0;
      while (values < chunk.getValueCount()) {
        PageHeader header = Util.readPageHeader(in);
        int compressed = header.getCompressed_page_size();
        int uncompressed = header.getUncompressed_page_size();
        byte[] body = in.readNBytes(compressed);
        if (body.length != compressed) {
          throw new IOException("page of " + compressed + " bytes runs past the column chunk");
        }
        switch (header.getType()) {
          case DICTIONARY_PAGE:
            dictionary = new DictionaryPage(codec.decompress(BytesInput.from(body), uncompressed),
                header.getDictionary_page_header().getNum_values(),
                encoding(header.getDictionary_page_header().getEncoding()));
            break;
          case DATA_PAGE:
            DataPageHeader v1 = header.getData_page_header();
            data.add(new DataPageV1(codec.decompress(BytesInput.from(body), uncompressed),
                v1.getNum_values(), uncompressed, noStats,
                encoding(v1.getRepetition_level_encoding()),
                encoding(v1.getDefinition_level_encoding()), encoding(v1.getEncoding())));
            values += v1.getNum_values();
            break;
          case DATA_PAGE_V2:
            data.add(pageV2(header, body, codec, noStats));
            values += header.getData_page_header_v2().getNum_values();
            break;
          default:
            // index and bloom filter pages carry nothing the rows need
        }
      }
      DictionaryPage dict = dictionary;
      long total = values;
      return new PageReader() {
        @Override
        public DictionaryPage readDictionaryPage() {
          return dict;
        }

        @Override
        public long getTotalValueCount() {
          return total;
        }

        @Override
        public DataPage readPage() {
          return data.poll();
        }
      };
    }

    /** In a V2 page the levels come first and are never compressed; the values may be. */
    private static DataPage pageV2(PageHeader header, byte[] body, BytesInputDecompressor codec,
        Statistics<?> stats) throws IOException {
      DataPageHeaderV2 v2 = header.getData_page_header_v2();
      int rl = v2.getRepetition_levels_byte_length();
      int dl = v2.getDefinition_levels_byte_length();
      if (rl < 0 || dl < 0 || rl + dl > body.length) {
        throw new IOException("V2 page levels of " + (rl + dl) + " bytes exceed the page");
      }
      BytesInput values = BytesInput.from(body, rl + dl, body.length - rl - dl);
      int valuesSize = header.getUncompressed_page_size() - rl - dl;
      if (v2.isIs_compressed()) {
        values = codec.decompress(values, valuesSize);
      }
      return DataPageV2.uncompressed(v2.getNum_rows(), v2.getNum_nulls(), v2.getNum_values(),
          BytesInput.from(body, 0, rl), BytesInput.from(body, rl, dl),
          encoding(v2.getEncoding()), values, stats);
    }

    private static Encoding encoding(org.apache.parquet.format.Encoding encoding) {
      return CONVERTER.getEncoding(encoding);
    }
  }

  private static DatasetException unreadable(Path file, Exception e) {
    String why = e instanceof NoSuchFileException ? "no such file"
        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new DatasetException("Cannot read Parquet file " + file + ": " + why, e);
  }

  private static Map<String, Object> struct(Group group) {
    GroupType type = group.getType();
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < type.getFieldCount(); i++) {
      Type field = type.getType(i);
      int count = group.getFieldRepetitionCount(i);
      if (field.isRepetition(Type.Repetition.REPEATED)) {
        List<Object> values = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
          values.add(value(group, i, r));
        }
        out.put(field.getName(), values);
      } else {
        out.put(field.getName(), count == 0 ? null : value(group, i, 0));
      }
    }
    return out;
  }

  private static Object value(Group group, int field, int index) {
    Type type = group.getType().getType(field);
    if (type.isPrimitive()) {
      return primitive(group, field, index, type.asPrimitiveType());
    }
    Group child = group.getGroup(field, index);
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      return list(child, type.asGroupType());
    }
    if (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation) {
      return map(child);
    }
    return struct(child);
  }

  /** A LIST column, in the standard 3-level layout or the older 2-level ones. */
  private static List<Object> list(Group list, GroupType listType) {
    int count = list.getFieldRepetitionCount(0);
    Type repeated = listType.getType(0);
    List<Object> out = new ArrayList<>(count);
    for (int r = 0; r < count; r++) {
      if (repeated.isPrimitive()) {
        out.add(primitive(list, 0, r, repeated.asPrimitiveType()));
        continue;
      }
      Group entry = list.getGroup(0, r);
      GroupType entryType = repeated.asGroupType();
      boolean isElementWrapper = entryType.getFieldCount() == 1
          && !entryType.getName().equals("array")
          && !entryType.getName().equals(listType.getName() + "_tuple");
      if (isElementWrapper) {
        out.add(entry.getFieldRepetitionCount(0) == 0 ? null : value(entry, 0, 0));
      } else {
        out.add(struct(entry));
      }
    }
    return out;
  }

  private static Map<String, Object> map(Group map) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int r = 0; r < map.getFieldRepetitionCount(0); r++) {
      Group entry = map.getGroup(0, r);
      Object key = value(entry, 0, 0);
      Object val = entry.getFieldRepetitionCount(1) == 0 ? null : value(entry, 1, 0);
      out.put(String.valueOf(key), val);
    }
    return out;
  }

  private static Object primitive(Group group, int field, int index, PrimitiveType type) {
    switch (type.getPrimitiveTypeName()) {
      case INT32:
        return group.getInteger(field, index);
      case INT64:
        return group.getLong(field, index);
      case FLOAT:
        return group.getFloat(field, index);
      case DOUBLE:
        return group.getDouble(field, index);
      case BOOLEAN:
        return group.getBoolean(field, index);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        return binary(group.getBinary(field, index).getBytes(), type);
      default:
        return group.getValueToString(field, index);
    }
  }

  /**
   * Text columns become strings; raw byte columns (images and audio in Hugging Face exports,
   * which have no STRING annotation) stay bytes.
   */
  private static Object binary(byte[] bytes, PrimitiveType type) {
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    boolean text = annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
    return text ? new String(bytes, StandardCharsets.UTF_8) : bytes;
  }
}
