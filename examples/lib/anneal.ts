// A small typed client for Anneal's training API, used the way OpenPipe ART's serverless backend
// uses it (docs/contract.md): chat completions through the
// official `openai` SDK, models, checkpoints, files and training jobs over plain HTTP.
// Shared by examples/*.ts and scripts/bench-learn.ts.
import OpenAI, { toFile } from "openai";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";

/** A LoRA adapter's settings (`lora` at model creation); unset fields take the server's defaults
 *  (rank 16, alpha 32, no dropout, every attention and MLP projection). */
export interface LoraSettings {
  rank?: number;
  alpha?: number;
  dropout?: number;
  target_modules?: ("q_proj" | "k_proj" | "v_proj" | "o_proj" | "gate_proj" | "up_proj" | "down_proj")[];
}

export interface TrainableModel {
  id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id: string | null;
  /** The settings it trains a LoRA adapter with, defaults filled in; null: full weights. */
  lora: Required<LoraSettings> | null;
}

/** One element of a trajectory: a chat message (context) or a returned Choice (trained). */
export type MessageOrChoice = ChatCompletionMessageParam | ChatCompletion.Choice;

export interface Trajectory {
  messages_and_choices: MessageOrChoice[];
  reward: number;
  metrics?: Record<string, number | boolean>;
}

export interface TrajectoryGroup {
  trajectories: Trajectory[];
}

/** `experimental_config` of an RL job; unset (or null) fields take the server's defaults. */
export interface RlConfig {
  learning_rate?: number | null;
  ppo?: boolean | null;
  epsilon?: number | null;
  epsilon_high?: number | null;
  scale_rewards?: boolean | null;
  advantage_balance?: number | null;
  importance_sampling_level?: "token" | "sequence" | "average" | "geometric_average" | null;
  mask_prob_ratio?: boolean | null;
  max_negative_advantage_importance_sampling_weight?: number | null;
  kimi_k2_tau?: number | null;
  precalculate_logprobs?: boolean | null;
}

export interface SftConfig {
  batch_size?: number | "auto";
  learning_rate?: number | number[];
  assistant_turns?: "all" | "last";
  /** Anneal's additions: passes over the data, a share held out for val/* metrics and early stopping. */
  epochs?: number;
  validation_fraction?: number;
  /** How a held-out reply is checked (val/accuracy), e.g. {type: "exact_match"}. */
  validation_checker?: Record<string, unknown>;
  early_stopping_patience?: number;
}

export interface JobEvent {
  id: string;
  type: "training_started" | "gradient_step" | "training_ended" | "training_failed";
  data: Record<string, unknown>;
  created_at: string;
}

export interface Job {
  id: string;
  model_id: string;
  kind: "rl" | "sft";
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  num_sequences: number | null;
  steps_done: number;
  checkpoint_step: number | null;
  error: string | null;
  /** Anneal's guard rails: the checkpoint looks worse than the weights it started from. */
  warnings?: { code: string; message: string }[];
}

interface Page<T> {
  data: T[];
  has_more: boolean;
}

export class AnnealError extends Error {
  constructor(readonly status: number, readonly detail: unknown, what: string) {
    super(`${what}: HTTP ${status} ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
}

export interface WaitOptions {
  /** Between polls of the event feed (ART sleeps 1 s). */
  pollMs?: number;
  onEvent?: (event: JobEvent) => void;
}

export class Anneal {
  /** The OpenAI SDK pointed at this server: chat completions and files. */
  readonly openai: OpenAI;
  private readonly root: string;

  constructor(baseURL: string, private readonly apiKey: string) {
    this.root = baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
    // ART's inference client waits up to 1200 s; a queued completion on a busy CPU can take a while.
    this.openai = new OpenAI({ baseURL: `${this.root}/v1`, apiKey, timeout: 1_200_000 });
  }

  /** ANNEAL_BASE_URL (default http://localhost:3000) and ANNEAL_API_KEY. */
  static fromEnv(): Anneal {
    const key = process.env.ANNEAL_API_KEY;
    if (!key) throw new Error("Set ANNEAL_API_KEY to an API key of the server (e.g. the ANNEAL_INIT_API_KEY it was started with).");
    return new Anneal(process.env.ANNEAL_BASE_URL ?? "http://localhost:3000", key);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.root}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new AnnealError(res.status, (parsed as { detail?: unknown } | null)?.detail ?? text, `${method} ${path}`);
    return parsed as T;
  }

  /** POST /v1/preview/models with return_existing (as ART's `register`): the same call again
   *  returns the same model. `entity` null → the caller's personal team. `lora` (Anneal's
   *  extension; `{}` for the defaults): the model trains a LoRA adapter, not its full weights. */
  createModel(o: { project: string; name: string; baseModel: string; entity?: string | null; lora?: LoraSettings | null }): Promise<TrainableModel> {
    return this.call("POST", "/v1/preview/models", {
      entity: o.entity ?? null, project: o.project, name: o.name, base_model: o.baseModel, return_existing: true, ...(o.lora ? { lora: o.lora } : {}),
    });
  }

  deleteModel(modelId: string): Promise<unknown> {
    return this.call("DELETE", `/v1/preview/models/${modelId}`);
  }

  /** The newest checkpoint's step, 0 when the model has none (ART's `_get_step`). */
  async latestStep(modelId: string): Promise<number> {
    const page = await this.call<Page<{ step: number }>>("GET", `/v1/preview/models/${modelId}/checkpoints?limit=1&order=desc`);
    return page.data[0]?.step ?? 0;
  }

  async submitRlJob(modelId: string, groups: TrajectoryGroup[], config: RlConfig = {}): Promise<string> {
    const job = await this.call<{ id: string }>("POST", "/v1/preview/training-jobs", { model_id: modelId, trajectory_groups: groups, experimental_config: config });
    return job.id;
  }

  /** `trainingDataUrl`: an uploaded file's id (or anneal-file:///<id>). */
  async submitSftJob(modelId: string, trainingDataUrl: string, config: SftConfig = {}): Promise<string> {
    const job = await this.call<{ id: string }>("POST", "/v1/preview/sft-training-jobs", { model_id: modelId, training_data_url: trainingDataUrl, config });
    return job.id;
  }

  getJob(jobId: string): Promise<Job> {
    return this.call("GET", `/v1/preview/training-jobs/${jobId}`);
  }

  /** Uploads JSONL lines as a file (multipart POST /v1/files, through the OpenAI SDK). */
  async uploadJsonl(filename: string, lines: readonly unknown[]): Promise<string> {
    const bytes = Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const file = await this.openai.files.create({ file: await toFile(bytes, filename), purpose: "fine-tune" });
    return file.id;
  }

  /** ART's polling loop: sleep, list events after the last processed one (every page), advance
   *  the cursor on every event except training_started (so it may come again), return on
   *  training_ended, throw on training_failed. No timeout, as ART: every job ends with one of them. */
  async waitForJob(jobId: string, o: WaitOptions = {}): Promise<void> {
    let after: string | null = null;
    for (;;) {
      await new Promise((r) => setTimeout(r, o.pollMs ?? 1000));
      let cursor = after;
      let page: Page<JobEvent>;
      do {
        const query = new URLSearchParams({ limit: "100", ...(cursor ? { after: cursor } : {}) });
        page = await this.call<Page<JobEvent>>("GET", `/v1/preview/training-jobs/${jobId}/events?${query}`);
        for (const event of page.data) {
          cursor = event.id;
          if (event.type === "training_started") {
            o.onEvent?.(event);
            continue;
          }
          after = event.id;
          o.onEvent?.(event);
          if (event.type === "training_failed") throw new Error(`Training job failed: ${String(event.data.error_message)}`);
          if (event.type === "training_ended") return;
        }
      } while (page.has_more);
    }
  }
}

/** The name chat completions serve a trained model under: latest, or one step. */
export function inferenceName(model: TrainableModel, step?: number): string {
  const name = `${model.entity}/${model.project}/${model.name}`;
  return step === undefined ? name : `${name}:step${step}`;
}
