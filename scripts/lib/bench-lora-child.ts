// Runs a bench:lora training case (bench-lora-train.ts) in a process of its own, so that its peak RSS
// is the case's alone. A case whose resident set passes `maxRssBytes` is stopped and reported as over
// it: on a shared machine a job far over its bound would take the others' memory, and its verdict is
// known by then.
import { fork } from "node:child_process";
import path from "node:path";
import type { TrainCase, TrainResult } from "./bench-lora-train";
import { procMemory } from "./proc-memory";

const POLL_MS = 200;

export function trainInChild(c: TrainCase, maxRssBytes: number): Promise<TrainResult> {
  const name = path.basename(c.model);
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, "bench-lora-train.ts"), [], { execArgv: ["--import", "tsx"] });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      done();
    };
    const watch = setInterval(() => {
      const rss = procMemory(child.pid!, "VmRSS") ?? 0;
      if (rss <= maxRssBytes) return;
      child.kill("SIGKILL");
      settle(() => resolve({ loadSeconds: NaN, stepSeconds: [NaN], tokensPerSecond: NaN, peakRssBytes: rss, stopped: true }));
    }, POLL_MS);
    child.once("message", (reply: { result?: TrainResult; error?: string }) =>
      settle(() => (reply.result ? resolve(reply.result) : reject(new Error(`training case ${name}: ${reply.error}`)))),
    );
    child.once("exit", (code, signal) => settle(() => reject(new Error(`training case ${name} exited (${code ?? signal}) without a result`))));
    child.send(c);
  });
}
