// How much the embedded engine holds at once (model-registry.ts). Apart from the registry so that
// the web server's admission control (lib/inference/engine.ts) reads the same numbers without
// loading llama.cpp.

export interface ServingLimits {
  maxModels: number;
  /** Concurrent requests per model, whatever adapters they ask for. */
  sequences: number;
  /** Sequences per llama.cpp context (contexts decode in parallel, a context's sequences in batches). */
  sequencesPerContext: number;
  /** Upper bound on each sequence's context length (the model's own is used when smaller). */
  maxContextSize: number;
  /** LoRA adapter files a loaded model may have taken in: llama.cpp frees an adapter only with its
   *  model, so past this the model is loaded afresh and the old copy goes when its requests end. */
  maxAdaptersPerModel: number;
}

export const DEFAULT_LIMITS: ServingLimits = {
  maxModels: 4, sequences: 8, sequencesPerContext: 1, maxContextSize: 4096, maxAdaptersPerModel: 8,
};
