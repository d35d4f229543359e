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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
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
    MessageType schema = schema(rows);
    Files.deleteIfExists(out);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer = builder(out).withType(schema)
        .withCodecFactory(new WriteCodecs()).withCompressionCodec(codec)
        .withDictionaryEncoding(true).build()) {
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

  private static MessageType schema(List<Map<String, Object>> rows) {
    Map<String, Object> examples = new LinkedHashMap<>();
    Map<String, Set<String>> structKeys = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      row.forEach((k, v) -> {
        if (v != null) {
          examples.putIfAbsent(k, v);
        }
        if (v instanceof List<?> list) {
          for (Object e : list) {
            if (e instanceof Map<?, ?> m) {
              m.keySet().forEach(key -> structKeys.computeIfAbsent(k, x -> new LinkedHashSet<>())
                  .add(String.valueOf(key)));
            }
          }
        }
      });
    }
    Types.MessageTypeBuilder message = Types.buildMessage();
    examples.forEach((name, value) -> message.addField(field(name, value,
        structKeys.getOrDefault(name, Set.of()))));
    return message.named("schema");
  }

  private static Type field(String name, Object example, Set<String> structKeys) {
    if (example instanceof List<?> list) {
      Object first = "";
      for (Object e : list) {
        if (e != null) {
          first = e;
          break;
        }
      }
      Type element;
      if (first instanceof Map<?, ?>) {
        Types.GroupBuilder<org.apache.parquet.schema.GroupType> struct = Types.optionalGroup();
        for (String key : structKeys) {
          struct.addField(Types.optional(PrimitiveTypeName.BINARY)
              .as(LogicalTypeAnnotation.stringType()).named(key));
        }
        element = struct.named("element");
      } else {
        element = scalar("element", first);
      }
      return Types.optionalList().element(element).named(name);
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
        if (element instanceof Map<?, ?> map) {
          Group struct = entry.addGroup("element");
          map.forEach((k, v) -> {
            if (v != null) {
              struct.append(String.valueOf(k), String.valueOf(v));
            }
          });
        } else if (element != null) {
          appendScalar(entry, "element", element);
        }
      }
      return;
    }
    appendScalar(group, name, value);
  }

  private static void appendScalar(Group group, String name, Object value) {
    if (value instanceof Integer || value instanceof Long) {
      group.append(name, ((Number) value).longValue());
    } else if (value instanceof Number n) {
      group.append(name, n.doubleValue());
    } else if (value instanceof Boolean b) {
      group.append(name, b);
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
