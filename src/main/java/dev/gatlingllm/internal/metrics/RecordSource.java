package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Indexed read access to the records of a run. Generated texts are fetched separately
 * because a large run keeps them on disk ({@link RecordStore}); {@link #record} may then
 * return a record whose {@code generatedText()} is null while {@link #text} still has it.
 */
public interface RecordSource {

  /** Number of records. */
  int size();

  /** The record at {@code index} (0-based); its text may be null, see {@link #text}. */
  RequestRecord record(int index);

  /** The generated text of a record, wherever it is kept; null when it was not kept. */
  String text(int index);

  /** A source over records that hold their own texts. */
  static RecordSource of(List<RequestRecord> records) {
    List<RequestRecord> copy = List.copyOf(records);
    return new RecordSource() {
      @Override
      public int size() {
        return copy.size();
      }

      @Override
      public RequestRecord record(int index) {
        return copy.get(index);
      }

      @Override
      public String text(int index) {
        return copy.get(index).generatedText();
      }
    };
  }

  /**
   * The indexes of the records, grouped by {@code key} in the key's order; records whose key
   * is null are in no group (a run's requests that are not a conversation's turn, or of no
   * request class).
   */
  default <K extends Comparable<K>> SortedMap<K, List<Integer>> indexesBy(
      Function<RequestRecord, K> key) {
    SortedMap<K, List<Integer>> groups = new TreeMap<>();
    for (int i = 0; i < size(); i++) {
      K k = key.apply(record(i));
      if (k != null) {
        groups.computeIfAbsent(k, x -> new ArrayList<>()).add(i);
      }
    }
    return groups;
  }

  /**
   * The records at {@code indexes} of this source, in that order, as a source of their own:
   * a part of the run that the run's rules are applied to alone (one base URL's requests).
   */
  default RecordSource subset(int[] indexes) {
    int[] map = indexes.clone();
    RecordSource base = this;
    return new RecordSource() {
      @Override
      public int size() {
        return map.length;
      }

      @Override
      public RequestRecord record(int index) {
        return base.record(map[Objects.checkIndex(index, map.length)]);
      }

      @Override
      public String text(int index) {
        return base.text(map[Objects.checkIndex(index, map.length)]);
      }
    };
  }

  /**
   * This source in request order: sorted by start time (records arrive in completion
   * order), ties kept in their original order.
   */
  default RecordSource inStartOrder() {
    int n = size();
    long[] keys = new long[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      keys[i] = record(i).startNanos();
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
    int[] map = new int[n];
    for (int i = 0; i < n; i++) {
      map[i] = order[i];
    }
    RecordSource base = this;
    return new RecordSource() {
      @Override
      public int size() {
        return n;
      }

      @Override
      public RequestRecord record(int index) {
        return base.record(map[Objects.checkIndex(index, n)]);
      }

      @Override
      public String text(int index) {
        return base.text(map[Objects.checkIndex(index, n)]);
      }
    };
  }
}
