import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

// Anneal's processes as an operator starts them: `npm start` (scripts/start.ts) and `npm run
// worker` (scripts/worker.ts, with `--server … --key …` a remote worker), each a child with its own
// environment, its output kept for the failure message of a test that needs it.

const root = path.resolve(import.meta.dirname, "../..");

export interface AnnealProcess {
  name: string;
  child: ChildProcess;
  /** What it printed (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown code runs, as when a machine dies. */
  kill(): Promise<void>;
}

export function startAnneal(name: string, script: "start" | "worker", env: Record<string, string>, args: string[] = []): AnnealProcess {
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    name,
    child,
    output: () => `── ${name} ──\n${output}`,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The process's resident memory in MB (Linux), or null where /proc is not there. */
export function residentMb(p: AnnealProcess): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p.child.pid}/status`, "utf8"));
    return kb ? Math.round(Number(kb[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** A TCP port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `check` holds, polling every `everyMs`; the error names `what` and adds `context()`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number, context: () => string = () => "", everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}\n${context()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
