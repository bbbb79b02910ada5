import { getEnv } from "@/lib/config/env";
import { DEFAULT_LIMITS } from "@/lib/engine/serving/serving-limits";
import { AppError } from "@/lib/contract/errors";
import { EngineThread } from "@/lib/inference/engine-thread/engine-client";

// The process's embedded engine: one thread (engine-thread/) holding the loaded models, shared
// through globalThis by every route bundle; and admission control, so a burst beyond what the
// sequences plus a bounded queue can hold is refused with 429 instead of piling up.

const engineKey = Symbol.for("anneal.embeddedEngine");
const admissionKey = Symbol.for("anneal.inferenceAdmission");
type Holder = { [engineKey]?: EngineThread; [admissionKey]?: Map<string, number> };

export function embeddedEngine(): EngineThread {
  return ((globalThis as Holder)[engineKey] ??= new EngineThread());
}

/** Requests in progress per model (on globalThis, like the engine: npm start loads lib/ twice). */
const inFlight = ((globalThis as Holder)[admissionKey] ??= new Map<string, number>());

/** Admits one request to `model` or throws 429; call the returned release when it is done. */
export function admit(model: string, capacity = DEFAULT_LIMITS.sequences + getEnv().ANNEAL_INFERENCE_QUEUE): () => void {
  const current = inFlight.get(model) ?? 0;
  if (current >= capacity) {
    throw new AppError("rate_limited", `Model '${model}' is busy (${current} requests in progress); retry shortly.`, { "Retry-After": "1" });
  }
  inFlight.set(model, current + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inFlight.get(model) ?? 1) - 1;
    if (left === 0) inFlight.delete(model);
    else inFlight.set(model, left);
  };
}
