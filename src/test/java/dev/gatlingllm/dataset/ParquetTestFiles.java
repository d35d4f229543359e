package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Writes Parquet files shaped like Hugging Face dataset exports (strings, numbers, lists of
 * strings, lists of structs) for tests and for the shipped sample. Runs without Hadoop, like
 * the reader: the writer's Hadoop-typed overloads are reached through method handles and pages
 * are compressed with aircompressor.
 *
 * <p>As a program: {@code ParquetTestFiles <input.json|.jsonl> <output.parquet> [CODEC]}
 * (see datasets/hf/make_parquet.sh).
 */
public final class ParquetTestFiles {

  private ParquetTestFiles() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: ParquetTestFiles <input.json|.jsonl> <output.parquet> [CODEC]");
      System.exit(2);
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    DataFiles.jsonRecords(Path.of(args[0]), "input", (n, node) -> rows.add(toMap(node)));
    CompressionCodecName codec = args.length > 2 ? CompressionCodecName.valueOf(args[2])
        : CompressionCodecName.SNAPPY;
    write(Path.of(args[1]), rows, codec);
    System.out.println("Wrote " + rows.size() + " rows to " + args[1] + " (" + codec + ")");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> toMap(JsonNode node) {
    return DataFiles.JSON.convertValue(node, LinkedHashMap.class);
  }

  /** Writes {@code rows}; the schema comes from the keys and value types seen in them. */
  static void write(Path out, List<Map<String, Object>> rows, CompressionCodecName codec)
      throws IOException {
    write(out, rows, codec, Layout.DEFAULT);
  }

  /**
   * How pages and row groups are cut: {@link #DEFAULT} is what Hugging Face exports look like
   * (V1 pages, one row group for small files); {@link #SMALL_V2} writes V2 data pages, a few
   * rows per page and many row groups, to exercise the reader's page and row-group walking.
   */
  enum Layout { DEFAULT, SMALL_V2 }

  static void write(Path out, List<Map<String, Object>> rows, CompressionCodecName codec,
      Layout layout) throws IOException {
    MessageType schema = schema(rows);
    Files.deleteIfExists(out);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    ExampleParquetWriter.Builder builder = builder(out).withType(schema)
        .withCodecFactory(new WriteCodecs()).withCompressionCodec(codec)
        .withDictionaryEncoding(true);
    if (layout == Layout.SMALL_V2) {
      builder = builder.withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
          .withPageRowCountLimit(3).withMinRowCountForPageSizeCheck(1).withRowGroupSize(16L << 10)
          .withPageSize(512);
    }
    try (ParquetWriter<Group> writer = builder.build()) {
      for (Map<String, Object> row : rows) {
        Group group = groups.newGroup();
        row.forEach((name, value) -> add(group, name, value));
        writer.write(group);
      }
    }
  }

  private static ExampleParquetWriter.Builder builder(Path out) throws IOException {
    try {
      // builder(OutputFile) and withConf(ParquetConfiguration) have Hadoop-typed overloads that
      // javac cannot resolve without Hadoop on the classpath.
      ExampleParquetWriter.Builder b = (ExampleParquetWriter.Builder) MethodHandles.publicLookup()
          .findStatic(ExampleParquetWriter.class, "builder",
              MethodType.methodType(ExampleParquetWriter.Builder.class, OutputFile.class))
          .invoke(new LocalOutputFile(out));
      return (ExampleParquetWriter.Builder) MethodHandles.publicLookup()
          .findVirtual(ParquetWriter.Builder.class, "withConf", MethodType.methodType(
              ParquetWriter.Builder.class, ParquetConfiguration.class))
          .invoke(b, (ParquetConfiguration) new PlainParquetConfiguration());
    } catch (Throwable e) {
      throw new IOException("Cannot create a Parquet writer for " + out, e);
    }
  }

  /**
   * The schema of all rows: a column's type is merged over every row's value, so a struct
   * gets every key any row has, and a list's element type every key any element has.
   */
  private static MessageType schema(List<Map<String, Object>> rows) {
    Map<String, Object> merged = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      row.forEach((k, v) -> merged.put(k, merge(merged.get(k), v)));
    }
    Types.MessageTypeBuilder message = Types.buildMessage();
    merged.forEach((name, example) -> message.addField(field(name, example)));
    return message.named("schema");
  }

  /** A value that has every shape of {@code a} and {@code b} (null stands for "unknown"). */
  @SuppressWarnings("unchecked")
  private static Object merge(Object a, Object b) {
    if (a == null) {
      return mergeInto(b);
    }
    if (b == null) {
      return a;
    }
    if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
      Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) ma);
      mb.forEach((k, v) -> out.put(String.valueOf(k), merge(out.get(String.valueOf(k)), v)));
      return out;
    }
    if (a instanceof List<?> la && b instanceof List<?> lb) {
      Object element = la.isEmpty() ? null : la.get(0);
      for (Object e : lb) {
        element = merge(element, e);
      }
      return element == null ? List.of() : List.of(element);
    }
    return a;
  }

  private static Object mergeInto(Object value) {
    if (value instanceof List<?> list) {
      Object element = null;
      for (Object e : list) {
        element = merge(element, e);
      }
      return element == null ? List.of() : List.of(element);
    }
    if (value instanceof Map<?, ?>) {
      return merge(new LinkedHashMap<String, Object>(), value);
    }
    return value;
  }

  private static Type field(String name, Object example) {
    if (example instanceof List<?> list) {
      Object element = list.isEmpty() ? "" : list.get(0);
      return Types.optionalList().element(field("element", element)).named(name);
    }
    if (example instanceof Map<?, ?> map) {
      Types.GroupBuilder<org.apache.parquet.schema.GroupType> struct = Types.optionalGroup();
      map.forEach((k, v) -> struct.addField(field(String.valueOf(k), v == null ? "" : v)));
      return struct.named(name);
    }
    return scalar(name, example);
  }

  private static Type scalar(String name, Object example) {
    if (example instanceof Integer || example instanceof Long) {
      return Types.optional(PrimitiveTypeName.INT64).named(name);
    }
    if (example instanceof Number) {
      return Types.optional(PrimitiveTypeName.DOUBLE).named(name);
    }
    if (example instanceof Boolean) {
      return Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
    }
    if (example instanceof byte[]) {
      // raw bytes, as Hugging Face stores Image and Audio features: no STRING annotation
      return Types.optional(PrimitiveTypeName.BINARY).named(name);
    }
    return Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType())
        .named(name);
  }

  private static void add(Group group, String name, Object value) {
    if (value == null) {
      return;
    }
    if (value instanceof List<?> list) {
      Group listGroup = group.addGroup(name);
      for (Object element : list) {
        Group entry = listGroup.addGroup("list");
        add(entry, "element", element);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      Group struct = group.addGroup(name);
      map.forEach((k, v) -> add(struct, String.valueOf(k), v));
      return;
    }
    if (value instanceof Integer || value instanceof Long) {
      group.append(name, ((Number) value).longValue());
    } else if (value instanceof Number n) {
      group.append(name, n.doubleValue());
    } else if (value instanceof Boolean b) {
      group.append(name, b);
    } else if (value instanceof byte[] bytes) {
      group.append(name, Binary.fromConstantByteArray(bytes));
    } else {
      group.append(name, String.valueOf(value));
    }
  }


  /** Page compression for the writer, in pure Java. */
  private static final class WriteCodecs implements CompressionCodecFactory {
    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
      return new BytesInputCompressor() {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
          byte[] in = PlainCodecs.bytesOf(bytes);
          switch (codec) {
            case UNCOMPRESSED:
              return BytesInput.from(in);
            case SNAPPY: {
              SnappyCompressor c = new SnappyCompressor();
              byte[] out = new byte[c.maxCompressedLength(in.length)];
              return BytesInput.from(out, 0, c.compress(in, 0, in.length, out, 0, out.length));
            }
            case ZSTD: {
              ZstdCompressor c = new ZstdCompressor();
              byte[] out = new byte[c.maxCompressedLength(in.length)];
              return BytesInput.from(out, 0, c.compress(in, 0, in.length, out, 0, out.length));
            }
            case LZ4_RAW: {
              Lz4Compressor c = new Lz4Compressor();
              byte[] out = new byte[c.maxCompressedLength(in.length)];
              return BytesInput.from(out, 0, c.compress(in, 0, in.length, out, 0, out.length));
            }
            case GZIP: {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(in);
              }
              return BytesInput.from(out.toByteArray());
            }
            default:
              throw new IOException("No test compressor for " + codec);
          }
        }

        @Override
        public CompressionCodecName getCodecName() {
          return codec;
        }

        @Override
        public void release() {}
      };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
      return new PlainCodecs().getDecompressor(codec);
    }

    @Override
    public void release() {}
  }
}
