// Server-sent events as the chat completions stream sends them: `data: …` lines, events separated
// by a blank line. Yields each event's data (multi-line data joined with "\n"); comments and other
// fields are skipped. Works on any byte stream, so a fetch body or a test's chunks alike.

export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      buffer = buffer.replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const data = eventData(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (data !== null) yield data;
      }
      if (done) {
        const data = eventData(buffer);
        if (data !== null) yield data;
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function eventData(event: string): string | null {
  const lines = event
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  return lines.length > 0 ? lines.join("\n") : null;
}
