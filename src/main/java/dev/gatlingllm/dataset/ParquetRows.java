package dev.gatlingllm.dataset;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetMetricsCallback;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
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
 * <p>parquet-java is used for the format, without Hadoop: the file is opened through
 * {@link LocalInputFile}, pages are decompressed by {@link PlainCodecs}, and the read options
 * are made by calling {@link ParquetReadOptions}' own constructor, because its public builder
 * creates the Hadoop codec factory unconditionally (the same approach Elasticsearch takes).
 * That constructor is not public API: this class is written against parquet-java 1.18 and
 * fails with a clear message if the signature ever changes.
 */
final class ParquetRows {

  private static final MethodHandle OPTIONS = optionsConstructor();

  private ParquetRows() {}

  /** Names of the file's top-level columns. */
  static List<String> columns(Path file) {
    try (ParquetFileReader reader = open(file)) {
      return reader.getFooter().getFileMetaData().getSchema().getFields().stream()
          .map(Type::getName).toList();
    } catch (IOException | RuntimeException e) {
      throw unreadable(file, e);
    }
  }

  /**
   * Gives each row to {@code sink}, with only the requested top-level columns (all of them
   * when {@code columns} is empty); only those columns are read from disk.
   */
  static void read(Path file, Collection<String> columns, Consumer<Map<String, Object>> sink) {
    try (ParquetFileReader reader = open(file)) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      MessageType requested = schema;
      if (!columns.isEmpty()) {
        List<Type> fields = new ArrayList<>();
        for (Type field : schema.getFields()) {
          if (columns.contains(field.getName())) {
            fields.add(field);
          }
        }
        requested = new MessageType(schema.getName(), fields);
        reader.setRequestedSchema(requested);
      }
      ColumnIOFactory io = new ColumnIOFactory();
      PageReadStore pages;
      while ((pages = reader.readNextRowGroup()) != null) {
        RecordReader<Group> records = io.getColumnIO(requested, schema)
            .getRecordReader(pages, new GroupRecordConverter(requested));
        for (long i = 0; i < pages.getRowCount(); i++) {
          sink.accept(struct(records.read()));
        }
      }
    } catch (DatasetException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw unreadable(file, e);
    }
  }

  private static ParquetFileReader open(Path file) throws IOException {
    ParquetReadOptions options;
    try {
      options = (ParquetReadOptions) OPTIONS.invokeExact(
          false, false, false, false, false, false, false, false, false,
          FilterCompat.NOOP, ParquetMetadataConverter.NO_FILTER,
          (CompressionCodecFactory) new PlainCodecs(),
          (ByteBufferAllocator) new HeapByteBufferAllocator(), 8 << 20,
          (Map<String, String>) new HashMap<String, String>(),
          (FileDecryptionProperties) null, (ParquetMetricsCallback) null,
          (ParquetConfiguration) new PlainParquetConfiguration());
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot create Parquet read options", e);
    }
    return new ParquetFileReader(new LocalInputFile(file), options);
  }

  private static MethodHandle optionsConstructor() {
    MethodType type = MethodType.methodType(void.class, boolean.class, boolean.class,
        boolean.class, boolean.class, boolean.class, boolean.class, boolean.class, boolean.class,
        boolean.class, FilterCompat.Filter.class, ParquetMetadataConverter.MetadataFilter.class,
        CompressionCodecFactory.class, ByteBufferAllocator.class, int.class, Map.class,
        FileDecryptionProperties.class, ParquetMetricsCallback.class, ParquetConfiguration.class);
    try {
      return MethodHandles.privateLookupIn(ParquetReadOptions.class, MethodHandles.lookup())
          .findConstructor(ParquetReadOptions.class, type);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ExceptionInInitializerError(new IllegalStateException("This parquet-hadoop "
          + "version has no ParquetReadOptions constructor " + type + "; gatling-llm reads "
          + "Parquet with parquet-hadoop 1.18.x", e));
    }
  }

  private static DatasetException unreadable(Path file, Exception e) {
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
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
        // text columns; binary ones are not used by any dataset mapping
        return group.getBinary(field, index).toStringUsingUTF8();
      default:
        return group.getValueToString(field, index);
    }
  }
}
