package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetRowsTest {

  @TempDir Path dir;

  static List<Map<String, Object>> read(Path file, Set<String> columns) {
    List<Map<String, Object>> rows = new ArrayList<>();
    ParquetRows.read(file, columns, rows::add);
    return rows;
  }

  @Test
  void v2PagesAndManyRowGroupsGiveTheSameRowsAsOnePlainRowGroup() throws IOException {
    List<Map<String, Object>> source = HfDatasetTest.rows(HfDatasetTest.SHAREGPT_JSON);
    Path plain = dir.resolve("plain.parquet");
    Path small = dir.resolve("small.parquet");
    ParquetTestFiles.write(plain, source, CompressionCodecName.SNAPPY);
    ParquetTestFiles.write(small, source, CompressionCodecName.ZSTD,
        ParquetTestFiles.Layout.SMALL_V2);
    ParquetMetadata footer = footer(small);
    assertTrue(footer.getBlocks().size() > 3, "row groups: " + footer.getBlocks().size());
    ColumnChunkMetaData chunk = footer.getBlocks().get(0).getColumns().get(0);
    byte[] bytes = Files.readAllBytes(small);
    PageHeader first = Util.readPageHeader(new ByteArrayInputStream(bytes,
        (int) chunk.getFirstDataPageOffset(), bytes.length));
    assertEquals(PageType.DATA_PAGE_V2, first.getType());

    List<Map<String, Object>> rows = read(small, Set.of());
    assertEquals(read(plain, Set.of()), rows);
    assertEquals(source.size(), rows.size());
    for (int i = 0; i < source.size(); i++) {
      assertEquals(source.get(i).get("id"), rows.get(i).get("id"));
      assertEquals(source.get(i).get("conversations"), rows.get(i).get("conversations"),
          "row " + i);
    }
  }

  @Test
  void onlyRequestedColumnsAreReturned() throws IOException {
    Path file = dir.resolve("two.parquet");
    ParquetTestFiles.write(file, List.of(row("a", "x", "b", 1L), row("a", "y", "b", 2L)),
        CompressionCodecName.UNCOMPRESSED);
    assertEquals(List.of("a", "b"), ParquetRows.columns(file));
    assertEquals(List.of(Map.of("b", 1L), Map.of("b", 2L)), read(file, Set.of("b")));
  }

  @Test
  void rawBinaryColumnsStayBytesAndStructsBecomeMaps() throws IOException {
    byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 0, 1, 2, (byte) 0xD9};
    Path file = dir.resolve("image.parquet");
    ParquetTestFiles.write(file, List.of(
        row("image", row("bytes", jpeg, "path", "a.jpg"), "n", 1L),
        row("image", null, "n", 2L)), CompressionCodecName.SNAPPY);
    List<Map<String, Object>> rows = read(file, Set.of());
    Map<?, ?> image = assertInstanceOf(Map.class, rows.get(0).get("image"));
    assertArrayEquals(jpeg, assertInstanceOf(byte[].class, image.get("bytes")));
    assertEquals("a.jpg", image.get("path"));
    assertNull(rows.get(1).get("image"));
  }

  @Test
  void damagedFilesAreRefusedWithTheFileAndTheReason() throws IOException {
    byte[] good = Files.readAllBytes(HfDatasetTest.SHAREGPT_PARQUET);

    Path notParquet = Files.writeString(dir.resolve("text.parquet"), "id,text\n1,hello\n");
    assertMessage(notParquet, "no Parquet magic number");

    Path tiny = Files.write(dir.resolve("tiny.parquet"),
        "PAR1".getBytes(StandardCharsets.US_ASCII));
    assertMessage(tiny, "too short for Parquet");

    Path badLength = dir.resolve("length.parquet");
    byte[] copy = good.clone();
    copy[copy.length - 5] = 0x7F;   // top byte of the little-endian footer length
    Files.write(badLength, copy);
    assertMessage(badLength, "does not fit in the file");

    // the footer survives but the column data in the middle is gone
    Path cut = dir.resolve("cut.parquet");
    byte[] holed = good.clone();
    Arrays.fill(holed, 4, holed.length / 2, (byte) 0);
    Files.write(cut, holed);
    DatasetException e = assertThrows(DatasetException.class,
        () -> read(cut, Set.of("conversations")));
    assertTrue(e.getMessage().startsWith("Cannot read Parquet file " + cut), e.getMessage());

    assertMessage(dir.resolve("absent.parquet"), "no such file");
  }

  private static ParquetMetadata footer(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int length = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN)
        .getInt();
    return new ParquetMetadataConverter().readParquetMetadata(new ByteArrayInputStream(bytes,
        bytes.length - 8 - length, length), ParquetMetadataConverter.NO_FILTER);
  }

  private static void assertMessage(Path file, String reason) {
    DatasetException e = assertThrows(DatasetException.class, () -> read(file, Set.of()));
    assertTrue(e.getMessage().startsWith("Cannot read Parquet file " + file + ": ")
        && e.getMessage().contains(reason), e.getMessage());
    DatasetException c = assertThrows(DatasetException.class, () -> ParquetRows.columns(file));
    assertTrue(c.getMessage().contains(reason), c.getMessage());
  }

  private static Map<String, Object> row(Object... pairs) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      row.put((String) pairs[i], pairs[i + 1]);
    }
    return row;
  }
}
