// `npm run worker -- --server <url> --key <worker key>`: Anneal's own trainer as a remote worker
// (docs/workers.md). It asks for a lease with what it can train; answers a probe of a base with its
// own logprobs; trains the job it is granted (train-lease.ts), one at a time; and between jobs waits
// as Anneal says. No database and no shared directory: everything crosses HTTP.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { dataDir, getEnv } from "@/lib/config/env";
import { log } from "@/lib/log";
import { newSlot } from "@/lib/training/jobs/training-thread";
import { VocabularyThread } from "@/lib/training/jobs/vocabulary/vocabulary-host";
import { probeLogprobs } from "@/lib/workers/probe";
import { PROTOCOL_VERSION } from "@/lib/workers/schemas";
import { trainLease, type GrantedLease, type WorkerContext } from "./train-lease";
import { localBase, localTrainableBases, workerCapabilities } from "./worker-capabilities";
import { Conflict, WorkerApiError, WorkerClient } from "./worker-client";

/** How long a shutdown waits for the hand-back of a job whose thread it stopped. */
const HAND_BACK_MS = 5_000;

type LeaseAnswer = { lease: GrantedLease | null; probe?: { base: string; ids: number[] }; retry_after_ms?: number };

export class RemoteWorker {
  /** Names this process to Anneal (stable while it runs). */
  readonly instance = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly context: WorkerContext;
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private wake = () => undefined as void;
  private jobRunning = false;

  constructor(server: string, key: string) {
    const env = getEnv();
    this.context = {
      client: new WorkerClient(server, key),
      bases: localTrainableBases(),
      dataDir: dataDir(env),
      slot: newSlot(),
      vocabularies: new VocabularyThread(),
      saveEvery: { steps: env.ANNEAL_TRAINING_SAVE_STEPS, ms: env.ANNEAL_TRAINING_SAVE_SECONDS * 1000 },
      stallMs: env.ANNEAL_JOB_STALL_MS,
      stopping: () => this.stopping,
    };
  }

  get bases(): string[] {
    return this.context.bases.map((b) => b.name);
  }

  /** Runs until stopped; rejects when Anneal refuses the worker key (401: unknown or revoked). */
  start(): Promise<void> {
    this.loop = this.run();
    return this.loop;
  }

  /** Stops asking for jobs; a running job saves its state after the step in progress, commits it
   *  and goes back to the queue (waiting up to `drainMs`, then its thread is stopped). */
  async stop(drainMs: number): Promise<void> {
    this.stopping = true;
    this.wake();
    const { slot } = this.context;
    if (this.jobRunning) Atomics.store(slot.stopRequest, 0, 1);
    await this.loopEnd(drainMs);
    await slot.thread?.terminate();
    // A job whose thread was stopped mid-step is handed back without a new state; a lease request
    // waiting on an unreachable server is not waited for.
    await this.loopEnd(HAND_BACK_MS);
    await this.context.vocabularies.dispose();
  }

  /** Waits for the loop to end, at most `ms`. */
  private async loopEnd(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loop.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private async run(): Promise<void> {
    const { client } = this.context;
    const capabilities = workerCapabilities(this.context.bases);
    while (!this.stopping) {
      let waitMs = getEnv().ANNEAL_JOB_POLL_MS;
      try {
        const answer = await client.json<LeaseAnswer>("POST", "/v1/workers/lease", { body: { instance: this.instance, version: PROTOCOL_VERSION, capabilities } });
        if (answer.probe) await this.probe(answer.probe);
        else if (answer.lease && !this.stopping) {
          this.jobRunning = true;
          await trainLease(this.context, answer.lease).finally(() => (this.jobRunning = false));
          continue;
        } else waitMs = answer.retry_after_ms ?? waitMs;
      } catch (error) {
        if (error instanceof WorkerApiError && error.status === 401) throw new Error(`Anneal refused the worker key (401): ${error.message}`);
        log.error("remote worker: a lease request failed", { error });
      }
      await this.sleep(waitMs);
    }
  }

  /** Anneal checks that "the same base" is the same: this worker's logprobs of its ids, on its file. */
  private async probe({ base, ids }: { base: string; ids: number[] }): Promise<void> {
    const logprobs = probeLogprobs(localBase(this.context.bases, base).gguf, ids);
    try {
      await this.context.client.json("POST", "/v1/workers/probe", { body: { instance: this.instance, base, logprobs } });
    } catch (error) {
      // Refused: Anneal leases this worker no job of that base, and says why in its answer.
      if (!(error instanceof Conflict)) throw error;
      log.warn(`remote worker: Anneal refused the base ${base}: ${error.message}`);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
