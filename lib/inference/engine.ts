import { getEnv } from "@/lib/config/env";
import { DEFAULT_LIMITS } from "@/lib/engine/serving/serving-limits";
import { AppError } from "@/lib/http/errors";
import { EngineThread } from "@/lib/inference/engine-thread/engine-client";

// The process's embedded engine: one thread (engine-thread/) holding the loaded models, shared
// through globalThis by every route bundle; and admission control, so a burst beyond what the
// sequences plus a bounded queue can hold is refused with 429 instead of piling up.

const key = Symbol.for("anneal.embeddedEngine");
type Holder = { [key]?: EngineThread };

export function embeddedEngine(): EngineThread {
  return ((globalThis as Holder)[key] ??= new EngineThread());
}

const inFlight = new Map<string, number>();

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
