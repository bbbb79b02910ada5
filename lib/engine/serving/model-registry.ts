// Loaded GGUF models and their contexts, on demand and bounded. A model is loaded on first use and
// kept in an LRU of `maxModels`; each model has one SequencePool (its contexts) per LoRA adapter it
// is served with, since llama.cpp applies adapters per context. Idle models and pools are evicted
// least recently used first; busy ones stay until released.

import type { LlamaContextOptions, LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import { getLlamaRuntime } from "./llama-runtime";
import { LruCache } from "./lru-cache";
import { DEFAULT_LIMITS, type ServingLimits } from "./serving-limits";
import { SequencePool } from "./sequence-pool";

export interface AdapterRef {
  path: string;
  /** Multiplies alpha/rank (default 1). */
  scale?: number;
}

export interface SequenceLease {
  model: LlamaModel;
  sequence: LlamaContextSequence;
  release(): void;
}

interface ContextEntry {
  pool: SequencePool;
  leases: number;
}

interface ModelEntry {
  model: Promise<LlamaModel>;
  contexts: LruCache<string, ContextEntry>;
  leases: number;
}

export class ModelRegistry {
  private readonly limits: ServingLimits;
  private readonly models: LruCache<string, ModelEntry>;
  private readonly disposals = new Set<Promise<unknown>>();

  constructor(limits: Partial<ServingLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.models = new LruCache(this.limits.maxModels, (m) => m.leases > 0, (m) => {
      m.contexts.clear();
      this.track(m.model.then((model) => model.dispose()));
    });
  }

  /** A sequence of `modelPath` (with `adapter` applied) for one request; call release() when done.
   *  `prompt` picks the idle sequence with the most reusable KV cache. */
  async lease(modelPath: string, adapter?: AdapterRef, prompt: readonly number[] = []): Promise<SequenceLease> {
    const m = this.modelEntry(modelPath);
    m.leases++;
    let c: ContextEntry | undefined;
    try {
      const model = await m.model;
      c = this.contextEntry(m, model, adapter);
      c.leases++;
      const pool = c.pool;
      const sequence = await pool.acquire(prompt);
      const context = c;
      let released = false;
      return {
        model,
        sequence,
        release: () => {
          if (released) return;
          released = true;
          pool.release(sequence);
          context.leases--;
          m.leases--;
          m.contexts.trim();
          this.models.trim();
        },
      };
    } catch (e) {
      if (c) c.leases--;
      m.leases--;
      throw e;
    }
  }

  /** The loaded model (loaded on first use), e.g. to tokenize a prompt before leasing a sequence. */
  model(modelPath: string): Promise<LlamaModel> {
    return this.modelEntry(modelPath).model;
  }

  /** The context length sequences of `model` get. */
  contextSize(model: LlamaModel): number {
    return Math.min(model.trainContextSize, this.limits.maxContextSize);
  }

  /** Disposes every context and model (waiting for evictions already under way). */
  async dispose(): Promise<void> {
    this.models.clear();
    await Promise.allSettled([...this.disposals]);
  }

  private modelEntry(modelPath: string): ModelEntry {
    const cached = this.models.get(modelPath);
    if (cached) return cached;
    const entry: ModelEntry = {
      model: getLlamaRuntime().then((llama) => llama.loadModel({ modelPath })),
      leases: 0,
      contexts: new LruCache(this.limits.maxContextsPerModel, (c) => c.leases > 0, (c) => {
        this.track(c.pool.dispose());
      }),
    };
    entry.model.catch(() => this.models.forget(modelPath, entry)); // let the next request retry
    this.models.set(modelPath, entry);
    return entry;
  }

  private contextEntry(m: ModelEntry, model: LlamaModel, adapter?: AdapterRef): ContextEntry {
    const key = adapter ? `${adapter.path}\u0000${adapter.scale ?? 1}` : "";
    const cached = m.contexts.get(key);
    if (cached) return cached;
    const { sequences, sequencesPerContext } = this.limits;
    const entry: ContextEntry = {
      pool: new SequencePool((count) => model.createContext(this.contextOptions(model, count, adapter)), { sequences, sequencesPerContext }),
      leases: 0,
    };
    m.contexts.set(key, entry);
    return entry;
  }

  private contextOptions(model: LlamaModel, sequences: number, adapter?: AdapterRef): LlamaContextOptions {
    // An all-F32 GGUF is an Anneal-trained model: flash attention off and an F32 KV cache make
    // llama.cpp's logprobs equal the trainer's (3.7e-6 apart, vs 1e-2 with the defaults).
    const exact = Number(model.fileInfo.metadata.general.file_type) === 0;
    return {
      contextSize: this.contextSize(model),
      sequences,
      threads: 1, // more threads per context collapse throughput on small CPUs; concurrency comes from contexts
      ...(exact && { flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" }),
      ...(adapter && { lora: { adapters: [{ filePath: adapter.path, scale: adapter.scale ?? 1 }] } }),
    };
  }

  private track(disposal: Promise<unknown>): void {
    const settled = disposal.catch(() => undefined).finally(() => this.disposals.delete(settled));
    this.disposals.add(settled);
  }
}
