"use client";

import { useTrainingEstimate } from "@/components/models/queries";
import { formatBytes, formatCount } from "@/lib/client/sizes";

/** The adapter a LoRA model of this base trains: rank·(in + out) per adapted matrix per layer,
 *  from the base's own shapes (GET /v1/preview/training-estimate). */
export function AdapterSizeNote({ baseModel, rank, modules }: { baseModel: string; rank: number; modules: readonly string[] }) {
  const estimate = useTrainingEstimate(baseModel && modules.length ? { base_model: baseModel, rank, target_modules: modules } : null);
  if (!estimate.data) return null;
  const { adapter } = estimate.data;
  const perLayer = adapter.modules.map((m) => `${m.module} ${rank}·(${m.in}+${m.out})`).join(" + ");
  return (
    <p data-testid="adapter-size" className="text-xs text-zinc-600" aria-live="polite" title={`per layer: ${perLayer}`}>
      Adapter: <strong className="tabular-nums">{formatCount(adapter.parameters)} parameters</strong>, {formatBytes(adapter.bytes)} as float32 — rank × (in + out) for {adapter.modules.length}{" "}
      matri{adapter.modules.length === 1 ? "x" : "ces"} in each of {adapter.layers} layers.
    </p>
  );
}
