package dev.gatlingllm.dataset;

import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Page decompression for Parquet without Hadoop: parquet-java's own codec factory is built on
 * Hadoop's codec classes, so reading any compressed file would need the Hadoop jars (tens of
 * megabytes). This one decodes the codecs Hugging Face and pyarrow write (Snappy by default,
 * also ZSTD, GZIP, LZ4_RAW) in pure Java with aircompressor and the JDK. Read-only.
 */
final class PlainCodecs implements CompressionCodecFactory {

  /** Decompresses one whole page from bytes to bytes. */
  private interface PageDecoder {
    int decode(byte[] in, byte[] out) throws IOException;
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    switch (codec) {
      case UNCOMPRESSED:
        return new Decompressor((in, out) -> {
          System.arraycopy(in, 0, out, 0, Math.min(in.length, out.length));
          return in.length;
        });
      case SNAPPY:
        return new Decompressor((in, out) ->
            new SnappyDecompressor().decompress(in, 0, in.length, out, 0, out.length));
      case ZSTD:
        return new Decompressor((in, out) ->
            new ZstdDecompressor().decompress(in, 0, in.length, out, 0, out.length));
      case LZ4_RAW:
        return new Decompressor((in, out) ->
            new Lz4Decompressor().decompress(in, 0, in.length, out, 0, out.length));
      case GZIP:
        return new Decompressor(PlainCodecs::gunzip);
      default:
        throw new UnsupportedOperationException("Parquet compression " + codec
            + " is not supported (supported: UNCOMPRESSED, SNAPPY, ZSTD, GZIP, LZ4_RAW)");
    }
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    throw new UnsupportedOperationException("Parquet files are only read here, not written");
  }

  @Override
  public void release() {
    // nothing pooled
  }

  /** The bytes of a page (BytesInput.toByteArray() is deprecated in parquet-java 1.18). */
  static byte[] bytesOf(BytesInput bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) bytes.size());
    bytes.writeAllTo(out);
    return out.toByteArray();
  }

  private static int gunzip(byte[] in, byte[] out) throws IOException {
    try (InputStream gz = new GZIPInputStream(new ByteArrayInputStream(in))) {
      return gz.readNBytes(out, 0, out.length);
    }
  }

  private static final class Decompressor implements BytesInputDecompressor {
    private final PageDecoder decoder;

    Decompressor(PageDecoder decoder) {
      this.decoder = decoder;
    }

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      return BytesInput.from(decode(bytesOf(bytes), uncompressedSize));
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output,
        int uncompressedSize) throws IOException {
      byte[] in = new byte[compressedSize];
      input.get(in);
      output.put(decode(in, uncompressedSize));
    }

    private byte[] decode(byte[] in, int uncompressedSize) throws IOException {
      byte[] out = new byte[uncompressedSize];
      int n = decoder.decode(in, out);
      if (n != uncompressedSize) {
        throw new IOException("Parquet page decompressed to " + n + " bytes, expected "
            + uncompressedSize);
      }
      return out;
    }

    @Override
    public void release() {
      // stateless
    }
  }
}
