package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Tool calls put together from a stream's deltas as vLLM streams them: the first delta of a
 * call names it under its index, later ones carry pieces of its arguments under the same
 * index, and several calls interleave.
 */
class ToolCallDeltasTest {

  private final ChunkFields fields = new ChunkFields();

  private void read(String json) throws Exception {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ChunkParser.parse(bytes, bytes.length, fields);
  }

  private static String delta(String toolCalls) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"tool_calls\":" + toolCalls + "},\"finish_reason\":null}]}";
  }

  @Test
  void argumentsSplitAcrossChunksAreJoinedUnderTheirIndex() throws Exception {
    read(delta("[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":"
        + "{\"name\":\"get_weather\",\"arguments\":\"\"}}]"));
    assertTrue(fields.toolCall);
    read(delta("[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\": \"}}]"));
    read(delta("[{\"index\":0,\"function\":{\"arguments\":\"\\\"Paris\\\"}\"}}]"));

    ToolCalls calls = fields.toolCalls;
    assertEquals(1, calls.count());
    assertEquals("get_weather", calls.name(0));
    assertEquals("{\"city\": \"Paris\"}", calls.arguments(0));
    assertEquals(1, calls.parsed());
  }

  @Test
  void interleavedCallsAreKeptApartByIndex() throws Exception {
    read(delta("[{\"index\":0,\"function\":{\"name\":\"a\",\"arguments\":\"{\\\"x\\\":\"}},"
        + "{\"index\":1,\"function\":{\"name\":\"b\",\"arguments\":\"[1,\"}}]"));
    read(delta("[{\"index\":1,\"function\":{\"arguments\":\"2]\"}}]"));
    read(delta("[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]"));
    read(delta("[{\"index\":2,\"function\":{\"name\":\"c\",\"arguments\":\"{\\\"broken\\\":\"}}]"));

    ToolCalls calls = fields.toolCalls;
    assertEquals(3, calls.count());
    assertEquals("{\"x\":1}", calls.arguments(0));
    assertEquals("[1,2]", calls.arguments(1));
    assertEquals("c", calls.name(2));
    assertEquals(2, calls.parsed()); // c's arguments never closed
  }

  @Test
  void aChunkWithoutToolCallsLeavesTheCallsButIsNoToolCallChunk() throws Exception {
    read(delta("[{\"index\":0,\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}}]"));
    read("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\",\"tool_calls\":[]}}]}");
    assertFalse(fields.toolCall);
    assertEquals(1, fields.toolCalls.count());
    assertEquals("hi", fields.text);
  }

  @Test
  void aWholeMessageNumbersItsCallsByPosition() throws Exception {
    read("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
        + "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"a\","
        + "\"arguments\":\"{}\"}},{\"id\":\"c2\",\"type\":\"function\",\"function\":"
        + "{\"name\":\"b\",\"arguments\":\"not json\"}}]},\"finish_reason\":\"tool_calls\"}]}");
    assertEquals(2, fields.toolCalls.count());
    assertEquals("b", fields.toolCalls.name(1));
    assertEquals(1, fields.toolCalls.parsed());
  }

  @Test
  void theServersReasoningCountIsReadFromTheUsage() throws Exception {
    read("{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":20,"
        + "\"total_tokens\":25,\"completion_tokens_details\":{\"reasoning_tokens\":12}}}");
    assertEquals(12, fields.reasoningTokens);
    assertEquals(20, fields.completionTokens);
    read("{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":20,"
        + "\"completion_tokens_details\":null}}");
    assertEquals(-1, fields.reasoningTokens);
    assertNull(fields.error);
  }

  @Test
  void onlyOneWholeJsonValueParses() {
    assertTrue(ToolCalls.isJson(" {\"a\": [1, 2]} "));
    assertTrue(ToolCalls.isJson("3"));
    assertFalse(ToolCalls.isJson(""));
    assertFalse(ToolCalls.isJson("{\"a\": 1"));
    assertFalse(ToolCalls.isJson("{} {}"));
    assertFalse(ToolCalls.isJson("{'a': 1}"));
  }
}
