// Loaded GGUF models and their contexts, on demand and bounded. A model is loaded on first use and
// kept in an LRU of `maxModels`; each model has one SequencePool (its contexts) per LoRA adapter it
// is served with, since llama.cpp applies adapters per context. Idle models and pools are evicted
// least recently used first; busy ones stay until released. llama.cpp keeps every adapter a model
// has loaded until the model is freed, so a model that has taken in maxAdaptersPerModel adapter
// files (an RL run writes one per iteration) is retired: the next request loads it afresh, and the
// old copy, with its adapters, is freed when its last request ends.

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
  /** Adapter files loaded into this copy of the model. */
  adapters: Set<string>;
  /** Replaced by a fresh copy: freed once its last lease ends. */
  retired: boolean;
}

export class ModelRegistry {
  private readonly limits: ServingLimits;
  private readonly models: LruCache<string, ModelEntry>;
  private readonly disposals = new Set<Promise<unknown>>();

  constructor(limits: Partial<ServingLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.models = new LruCache(this.limits.maxModels, (m) => m.leases > 0, (m) => this.free(m));
  }

  /** A sequence of `modelPath` (with `adapter` applied) for one request; call release() when done.
   *  `prompt` picks the idle sequence with the most reusable KV cache. */
  async lease(modelPath: string, adapter?: AdapterRef, prompt: readonly number[] = []): Promise<SequenceLease> {
    const m = this.modelEntry(modelPath, adapter?.path);
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
          if (m.retired && m.leases === 0) this.free(m);
          m.contexts.trim();
          this.models.trim();
        },
      };
    } catch (e) {
      if (c) c.leases--;
      m.leases--;
      if (m.retired && m.leases === 0) this.free(m);
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

  /** The entry serving `modelPath`; one that would take in an adapter past the limit is retired
   *  for a fresh one. */
  private modelEntry(modelPath: string, adapterPath?: string): ModelEntry {
    const cached = this.models.get(modelPath);
    if (cached && adapterPath && !cached.adapters.has(adapterPath) && cached.adapters.size >= this.limits.maxAdaptersPerModel) {
      this.models.forget(modelPath, cached);
      cached.retired = true;
      if (cached.leases === 0) this.free(cached);
    } else if (cached) {
      if (adapterPath) cached.adapters.add(adapterPath);
      return cached;
    }
    const entry: ModelEntry = {
      model: getLlamaRuntime().then((llama) => llama.loadModel({ modelPath })),
      leases: 0,
      adapters: new Set(adapterPath ? [adapterPath] : []),
      retired: false,
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

  /** Frees a model's contexts and the model (with every adapter it loaded). */
  private free(m: ModelEntry): void {
    m.contexts.clear();
    this.track(m.model.then((model) => model.dispose()));
  }

  private track(disposal: Promise<unknown>): void {
    const settled = disposal.catch(() => undefined).finally(() => this.disposals.delete(settled));
    this.disposals.add(settled);
  }
}
