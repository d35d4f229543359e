package dev.gatlingllm.testing;

import java.io.IOException;
import java.io.OutputStream;

/** Writes to two streams: a test reads what a run printed while the console still shows it. */
public final class TeeOutputStream extends OutputStream {

  private final OutputStream a;
  private final OutputStream b;

  public TeeOutputStream(OutputStream a, OutputStream b) {
    this.a = a;
    this.b = b;
  }

  @Override
  public void write(int c) throws IOException {
    a.write(c);
    b.write(c);
  }

  @Override
  public void write(byte[] bytes, int off, int len) throws IOException {
    a.write(bytes, off, len);
    b.write(bytes, off, len);
  }

  @Override
  public void flush() throws IOException {
    a.flush();
    b.flush();
  }
}
