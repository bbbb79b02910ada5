import { freePort, startAnneal, until, type AnnealProcess } from "./anneal-processes";

// The scaled deployment of docs/operations.md on this machine: web processes (`npm start`, training
// left to workers) on free ports and `npm run worker` processes, on one PostgreSQL database and one
// shared data directory. Used by the topology test and bench:soak; either may kill a process
// (SIGKILL) and start it again as an operator's supervisor would, a web process on its old port.

export interface DeploymentSettings {
  databaseUrl: string;
  dataDir: string;
  /** The first admin's API key (ANNEAL_INIT_API_KEY). */
  initKey: string;
  webs: number;
  workers: number;
  /** More environment for the web processes and the workers (lease timings, save interval, ...). */
  webEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
}

export interface Web {
  process: AnnealProcess;
  url: string;
}

export interface ScaledDeployment {
  /** Replaced in place on a restart, so `webs[i].url` stays the process's address. */
  webs: Web[];
  workers: AnnealProcess[];
  /** Every process's output, for failure messages. */
  everyOutput(): string;
  /** SIGKILLs a process and starts it again; resolves once a web process answers /v1/health. */
  restart(which: { web: number } | { worker: number }): Promise<void>;
  stop(): Promise<void>;
}

/** How long a web process may take to answer /v1/health after its start (a busy 2-core machine). */
const WEB_START_MS = 150_000;

export async function startScaledDeployment(settings: DeploymentSettings): Promise<ScaledDeployment> {
  const shared = { DATABASE_URL: settings.databaseUrl, ANNEAL_DATA_DIR: settings.dataDir, ANNEAL_LOG_LEVEL: "warn" };
  const ports = await Promise.all(Array.from({ length: settings.webs }, () => freePort()));
  const startWeb = (i: number): Web => ({
    url: `http://127.0.0.1:${ports[i]}`,
    process: startAnneal(`web ${i}`, "start", {
      ...shared,
      HOST: "127.0.0.1",
      PORT: String(ports[i]),
      ANNEAL_TRAINING_CONCURRENCY: "0",
      ANNEAL_INIT_API_KEY: settings.initKey,
      ANNEAL_ADMIN_PASSWORD: "deployment-admin-password",
      ...settings.webEnv,
    }),
  });
  const startWorker = (i: number) => startAnneal(`worker ${i}`, "worker", { ...shared, ...settings.workerEnv });
  const webs = ports.map((_, i) => startWeb(i));
  const workers: AnnealProcess[] = [];
  const everyOutput = () => [...webs.map((w) => w.process), ...workers].map((p) => p.output()).join("\n");
  const healthy = (web: Web) => until(`${web.process.name} to answer /v1/health`, async () => (await fetch(`${web.url}/v1/health`)).ok, WEB_START_MS, everyOutput, 250);
  const stop = () => Promise.all([...webs.map((w) => w.process), ...workers].map((p) => p.kill())).then(() => undefined);

  try {
    // The web processes start at once: they migrate and initialise the same database together.
    for (const web of webs) await healthy(web);
    // Workers start once a web process has migrated (they would wait on its advisory lock anyway).
    for (let i = 0; i < settings.workers; i++) workers.push(startWorker(i));
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    webs,
    workers,
    everyOutput,
    stop,
    async restart(which) {
      if ("web" in which) {
        await webs[which.web].process.kill();
        webs[which.web] = startWeb(which.web);
        await healthy(webs[which.web]);
      } else {
        await workers[which.worker].kill();
        workers[which.worker] = startWorker(which.worker);
      }
    },
  };
}
