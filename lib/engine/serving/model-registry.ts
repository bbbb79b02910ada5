// Loaded GGUF models and their contexts, on demand and bounded. A model is loaded on first use and
// kept in an LRU of `maxModels`; each has one SequencePool, whose contexts serve the bare model and
// every LoRA adapter it is asked for (a context is switched to a request's adapter when none serving
// that adapter is idle: sequence-pool.ts). Idle models are evicted least recently used first; busy
// ones stay until released. llama.cpp keeps every adapter a model has loaded until the model is
// freed, so a model that has taken in maxAdaptersPerModel adapter files (an RL run writes one per
// iteration) is retired: the next request loads it afresh, and the old copy, with its adapters, is
// freed when its last request ends.

import os from "node:os";
import type { LlamaContextOptions, LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import { loraOf, switchContextAdapter, type AdapterRef } from "./context-adapter";
import { idleCpus as sharedIdleCpus, threadBudget, type IdleCpus } from "./idle-cpus";
import { getLlamaRuntime } from "./llama-runtime";
import { LruCache } from "./lru-cache";
import { DEFAULT_LIMITS, type ServingLimits } from "./serving-limits";
import { SequencePool } from "./sequence-pool";

export type { AdapterRef };

export interface SequenceLease {
  model: LlamaModel;
  sequence: LlamaContextSequence;
  release(): void;
}

interface ModelEntry {
  model: Promise<LlamaModel>;
  pool: SequencePool<AdapterRef>;
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
  /** Paths of bases the catalog lists as trainable (model()): served as the trainer computes. */
  private readonly trainable = new Set<string>();
  /** Leases handed out, of every model: while there are none, nothing decodes. */
  private decoding = 0;

  /** `idleCpus`: how many CPUs sat idle while nothing decoded (tests pass their own). */
  constructor(limits: Partial<ServingLimits> = {}, private readonly idleCpus: Pick<IdleCpus, "busy" | "quiet"> = sharedIdleCpus()) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.models = new LruCache(this.limits.maxModels, (m) => m.leases > 0, (m) => this.free(m));
  }

  /** A sequence of `modelPath` (with `adapter` applied) for one request; call release() when done.
   *  `prompt` picks the idle sequence with the most reusable KV cache. */
  async lease(modelPath: string, adapter?: AdapterRef, prompt: readonly number[] = []): Promise<SequenceLease> {
    const m = this.modelEntry(modelPath, adapter?.path);
    m.leases++;
    try {
      const model = await m.model;
      this.startDecoding(model);
      let sequence: LlamaContextSequence;
      try {
        sequence = await m.pool.acquire(adapter, prompt);
      } catch (e) {
        this.endDecoding();
        throw e;
      }
      let released = false;
      return {
        model,
        sequence,
        release: () => {
          if (released) return;
          released = true;
          m.pool.release(sequence);
          this.endDecoding();
          this.endLease(m);
          this.models.trim();
        },
      };
    } catch (e) {
      this.endLease(m);
      throw e;
    }
  }

  /** The loaded model (loaded on first use), e.g. to tokenize a prompt before leasing a sequence.
   *  `trainable`: the catalog lists it as a base that trains (say so before its first lease). */
  model(modelPath: string, options: { trainable?: boolean } = {}): Promise<LlamaModel> {
    if (options.trainable) this.trainable.add(modelPath);
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
    const model = getLlamaRuntime().then((llama) => llama.loadModel({ modelPath }));
    const entry: ModelEntry = {
      model,
      pool: new SequencePool<AdapterRef>(
        {
          create: async (sequences, adapter) => {
            const loaded = await model;
            return loaded.createContext(this.contextOptions(modelPath, loaded, sequences, adapter));
          },
          switchAdapter: (context, adapter) => switchContextAdapter(context, adapter),
          keyOf: (adapter) => (adapter ? `${adapter.path}\u0000${adapter.scale ?? 1}` : ""),
        },
        this.limits,
      ),
      leases: 0,
      adapters: new Set(adapterPath ? [adapterPath] : []),
      retired: false,
    };
    model.catch(() => this.models.forget(modelPath, entry)); // let the next request retry
    this.models.set(modelPath, entry);
    return entry;
  }

  /** Decodes share the runtime's thread budget (node-llama-cpp's ThreadsSplitter: contextOptions);
   *  it is set to the CPUs found idle (idle-cpus.ts) when serving starts decoding after decoding
   *  nothing — never while a decode holds threads, which the splitter counts against it. */
  private startDecoding(model: LlamaModel): void {
    if (this.decoding++ === 0) model.llama.maxThreads = threadBudget(os.availableParallelism(), this.idleCpus.busy());
  }

  private endDecoding(): void {
    if (--this.decoding === 0) this.idleCpus.quiet();
  }

  private endLease(m: ModelEntry): void {
    m.leases--;
    if (m.retired && m.leases === 0) this.free(m);
  }

  private contextOptions(modelPath: string, model: LlamaModel, sequences: number, adapter?: AdapterRef): LlamaContextOptions {
    // A model that trains (an all-F32 GGUF is an Anneal-trained model; other bases are listed
    // trainable) is served as the trainer computes, so RL's served log-probs are its own: flash
    // attention off and an F32 KV cache (an Anneal model: 3.7e-6 apart, vs 1e-2 with the defaults; a
    // Q8_0 Qwen3 with a LoRA adapter: served_abs_log_ratio 0.045 -> 0, bit for bit). Other bases keep
    // llama.cpp's defaults (F16 KV cache: half the memory), docs/operations.md.
    const exact = this.trainable.has(modelPath) || Number(model.fileInfo.metadata.general.file_type) === 0;
    return {
      contextSize: this.contextSize(model),
      sequences,
      // Each decode takes its share of the runtime's thread budget (the idle CPUs: startDecoding), at
      // least one thread: a lone decoding context all of it, k contexts decoding at once about
      // budget/k each, and a decode waits while the others hold every thread (node-llama-cpp's
      // ThreadsSplitter), so the threads decoding at once never outnumber the budget. node-llama-cpp
      // caps a context's share at the budget it was created under: one created while the machine
      // was busy stays on one thread.
      threads: { ideal: model.llama.maxThreads, min: 1 },
      ...(exact && { flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" }),
      ...(adapter && { lora: { adapters: [loraOf(adapter)] } }),
    };
  }

  /** Frees a model's contexts and the model (with every adapter it loaded). */
  private free(m: ModelEntry): void {
    this.track(m.pool.dispose());
    this.track(m.model.then((model) => model.dispose()));
  }

  private track(disposal: Promise<unknown>): void {
    const settled = disposal.catch(() => undefined).finally(() => this.disposals.delete(settled));
    this.disposals.add(settled);
  }
}
