package dev.gatlingllm.internal.arrival;

import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Event loop groups of the kinds Gatling creates (same factory), for the tests. */
final class EventLoops {

  private EventLoops() {}

  /** The transports available here: always NIO, plus epoll and io_uring when they load. */
  static List<String> availableKinds() {
    List<String> kinds = new ArrayList<>(List.of("nio"));
    if (Epoll.isAvailable()) {
      kinds.add("epoll");
    }
    if (IoUring.isAvailable()) {
      kinds.add("io_uring");
    }
    return kinds;
  }

  static EventLoopGroup newGroup(String kind, int threads) {
    return Transports.newEventLoopGroup(!kind.equals("nio"), kind.equals("io_uring"), threads,
        "test-" + kind);
  }

  static void shutdown(EventLoopGroup group) throws InterruptedException {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }
}
