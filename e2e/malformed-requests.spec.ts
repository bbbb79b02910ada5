import net from "node:net";
import { expect, test } from "@playwright/test";
import { E2E_INIT_API_KEY, E2E_PORT } from "../playwright.config";

// Requests no HTTP client library would send, written byte for byte to the server npm start runs:
// its answer comes before Next's router, which answered a malformed escape with a plain-text 500
// and left a request with an unbuildable URL open.

interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
}

function dechunk(raw: string): string {
  let out = "";
  for (let at = 0; ; ) {
    const lineEnd = raw.indexOf("\r\n", at);
    const size = parseInt(raw.slice(at, lineEnd), 16);
    if (!size) return out;
    out += raw.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

function send(requestLine: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(E2E_PORT, "127.0.0.1", () => {
      const lines = Object.entries({ Connection: "close", ...headers }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`${requestLine}\r\n${lines.join("\r\n")}\r\n\r\n`);
    });
    let received = "";
    socket.setTimeout(5000, () => (socket.destroy(), reject(new Error(`no answer within 5 s to ${requestLine}`))));
    socket.on("data", (chunk) => (received += chunk));
    socket.on("end", () => {
      const split = received.indexOf("\r\n\r\n");
      const head = received.slice(0, split);
      const raw = received.slice(split + 4);
      resolve({
        status: Number(head.split(" ")[1]),
        contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? "",
        body: /transfer-encoding: chunked/i.test(head) ? dechunk(raw) : raw,
      });
    });
    socket.on("error", reject);
  });
}

const auth = { Host: `127.0.0.1:${E2E_PORT}`, Authorization: `Bearer ${E2E_INIT_API_KEY}` };

test("a path parameter whose escapes do not decode is a 422 at that parameter", async () => {
  for (const escape of ["%ZZ", "%E0%A4%A", "%ED%A0%80"]) {
    const answer = await send(`GET /v1/preview/models/${escape} HTTP/1.1`, auth);
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body).detail).toEqual([expect.objectContaining({ loc: ["path", "model_id"] })]);
  }
  const nul = await send("GET /v1/files/%00 HTTP/1.1", auth);
  expect(nul.status).toBe(422);
  expect(JSON.parse(nul.body).detail[0].loc).toEqual(["path", "file_id"]);
});

test("a Host header that is not a host is a 422, on Next's routes and on the direct chat route", async () => {
  for (const requestLine of ["GET /v1/me HTTP/1.1", "POST /v1/chat/completions HTTP/1.1"]) {
    const answer = await send(requestLine, { ...auth, Host: "a b", "Content-Length": "0" });
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body).detail).toEqual([expect.objectContaining({ loc: ["header", "host"] })]);
  }
});

test("a console page with a malformed escape is a plain 400, not a server error", async () => {
  const answer = await send("GET /models/%ZZ HTTP/1.1", { Host: `127.0.0.1:${E2E_PORT}` });
  expect(answer.status).toBe(400);
  expect(answer.contentType).toContain("text/plain");
  expect(answer.body).toContain("Malformed percent-escape");
});
