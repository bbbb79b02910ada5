import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

// A stand-in for vLLM's OpenAI server, for the endpoints Anneal calls when vLLM serves LoRA
// checkpoints: vLLM itself needs a GPU (and Python) and cannot run in this test suite. It answers as
// vLLM's serving_models.py does — a 400 "has already been loaded" for a name it holds, a 404 for a
// missing adapter directory or an unknown model — and records every call. `directories` maps the
// adapter directory as vLLM names it (vllm_dir) to where it lies on this machine (write_dir).

export interface StandInCall {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

export interface VllmStandIn {
  url: string;
  calls: StandInCall[];
  /** Loaded adapters: name → the path it was loaded from (as vLLM names it). */
  adapters: Map<string, string>;
  /** vLLM restarted: every runtime-loaded adapter is gone. */
  restart(): void;
  close(): Promise<void>;
}

const errorBody = (message: string, type: string, code: number) => JSON.stringify({ object: "error", message, type, param: null, code });

export async function startVllmStandIn(baseModel: string, directories: Record<string, string>): Promise<VllmStandIn> {
  const calls: StandInCall[] = [];
  const adapters = new Map<string, string>();
  const onMachine = (vllmPath: string) => {
    const root = Object.keys(directories).find((dir) => vllmPath.startsWith(`${dir}/`));
    return root === undefined ? undefined : path.join(directories[root], vllmPath.slice(root.length + 1));
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>) : undefined;
    const route = `${req.method} ${req.url}`;
    calls.push({ method: req.method ?? "", path: req.url ?? "", body });
    const reply = (status: number, text: string, type = "application/json") => res.writeHead(status, { "content-type": type }).end(text);

    if (route === "POST /v1/load_lora_adapter") {
      const name = String(body?.lora_name);
      if (adapters.has(name)) return reply(400, errorBody(`The lora adapter '${name}' has already been loaded.`, "InvalidUserInput", 400));
      const dir = onMachine(String(body?.lora_path));
      if (!dir || !fs.existsSync(path.join(dir, "adapter_config.json"))) {
        return reply(404, errorBody(`Loading lora ${name} failed: No adapter found for ${String(body?.lora_path)}`, "NotFoundError", 404));
      }
      adapters.set(name, String(body?.lora_path));
      return reply(200, `Success: LoRA adapter '${name}' added successfully.`, "text/plain");
    }
    if (route === "POST /v1/unload_lora_adapter") {
      const name = String(body?.lora_name);
      if (!adapters.delete(name)) return reply(404, errorBody(`The lora adapter '${name}' cannot be found.`, "NotFoundError", 404));
      return reply(200, `Success: LoRA adapter '${name}' removed successfully.`, "text/plain");
    }
    if (route === "POST /v1/chat/completions") {
      const model = String(body?.model);
      if (model !== baseModel && !adapters.has(model)) return reply(404, errorBody(`The model \`${model}\` does not exist.`, "NotFoundError", 404));
      const content = `reply from ${model}`;
      const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
      const base = { id: "chatcmpl-stand-in", created: 1, model };
      if (!body?.stream) {
        return reply(200, JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }], usage }));
      }
      const events = [
        { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: null, logprobs: null }] },
        { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop", logprobs: null }] },
        { ...base, object: "chat.completion.chunk", choices: [], usage },
      ];
      return reply(200, `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")}data: [DONE]\n\n`, "text/event-stream");
    }
    reply(404, JSON.stringify({ detail: "Not Found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    adapters,
    restart: () => adapters.clear(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
