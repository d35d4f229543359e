package dev.gatlingllm.metrics;

import java.util.ArrayList;
import java.util.List;

/** Collects the records of one run; written from event loops, read after the run. */
public final class RecordStore {

  private final List<RequestRecord> records = new ArrayList<>();

  public synchronized void add(RequestRecord record) {
    records.add(record);
  }

  /** A copy of the records so far, in completion order. */
  public synchronized List<RequestRecord> snapshot() {
    return new ArrayList<>(records);
  }

  public synchronized int size() {
    return records.size();
  }
}
