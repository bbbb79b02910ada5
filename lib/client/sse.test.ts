import { describe, expect, it } from "vitest";
import { readSseData } from "@/lib/client/sse";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>) {
  const out: string[] = [];
  for await (const data of readSseData(body)) out.push(data);
  return out;
}

describe("readSseData", () => {
  it("yields each event's data, across chunk boundaries", async () => {
    expect(await collect(streamOf('data: {"a"', ":1}\n\nda", 'ta: {"b":2}\n\ndata: [DONE]\n\n'))).toEqual(['{"a":1}', '{"b":2}', "[DONE]"]);
  });

  it("handles CRLF, comments, multi-line data and a last event without a blank line", async () => {
    expect(await collect(streamOf(": keep-alive\r\n\r\ndata: one\r\ndata: two\r\n\r\ndata:[DONE]"))).toEqual(["one\ntwo", "[DONE]"]);
  });

  it("decodes UTF-8 split between chunks", async () => {
    const bytes = new TextEncoder().encode("data: héllo\n\n");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    expect(await collect(body)).toEqual(["héllo"]);
  });
});
