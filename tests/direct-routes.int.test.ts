import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { getDb } from "@/lib/db/client";
import { directRoute, serveDirect } from "@/scripts/lib/direct-routes";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// The path npm start answers chat completions on (scripts/lib/direct-routes.ts) over a real
// socket: a client that goes away mid-stream stops its generation and its call is recorded as
// cancelled; a response that ended is recorded as a success.

let fixture: InferenceFixture;
let user: TestUser;
let server: http.Server;
let port: number;

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  server = http.createServer((req, res) => void serveDirect(directRoute(req)!, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fixture.remove();
});

/** Streams a completion; `onFirstData` may end the request early. Resolves with the call's id. */
function stream(body: object, onFirstData: (req: http.ClientRequest) => void = () => undefined): Promise<string> {
  const payload = JSON.stringify({ ...body, stream: true });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port, host: "127.0.0.1", path: "/v1/chat/completions", method: "POST", headers: { authorization: `Bearer ${user.key}`, "content-type": "application/json" } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
        res.once("data", () => onFirstData(req));
        res.on("data", () => undefined);
        res.on("end", () => resolve(res.headers["anneal-call-id"] as string));
        res.on("close", () => resolve(res.headers["anneal-call-id"] as string));
      },
    );
    req.on("error", (error) => ((error as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(error)));
    req.end(payload);
  });
}

const recorded = async (id: string) => {
  await flushCalls();
  return getDb().call.findUniqueOrThrow({ where: { id }, select: { status: true, completionTokens: true } });
};

describe("chat completions on npm start's direct path", () => {
  it("a client that disconnects mid-stream stops the generation: the call is cancelled", async () => {
    const id = await stream({ messages: [{ role: "user", content: "Go on." }], model: "test/frozen", max_tokens: 200, ignore_eos: true }, (req) => req.destroy());
    await expect.poll(async () => (await recorded(id)).status, { timeout: 10_000 }).toBe("cancelled");
    expect((await recorded(id)).completionTokens).toBeLessThan(200);
  });

  it("a stream that ended is a success", async () => {
    const id = await stream({ messages: [{ role: "user", content: "Hi" }], model: "test/tiny", max_tokens: 5, ignore_eos: true });
    await expect.poll(async () => (await recorded(id)).status, { timeout: 10_000 }).toBe("success");
    expect((await recorded(id)).completionTokens).toBe(5);
  });

  it("a Host header that is not a host is answered 422 at header.host, not left hanging", async () => {
    // http.request refuses to send such a header, so the request is written by hand.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () =>
        socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: a b\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`),
      );
      let received = "";
      socket.setTimeout(5000, () => reject(new Error(`no answer within 5 s: ${received}`)));
      socket.on("data", (chunk) => (received += chunk));
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 422 /);
    const body = JSON.parse(answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1)); // inside the chunked framing
    expect(body.detail).toEqual([{ loc: ["header", "host"], msg: "The Host header is not a valid host[:port].", type: "value_error" }]);
    expect(body.error.message).toContain("Host header");
  });
});
