"use client";

import Link from "next/link";
import { useTrainedModel } from "@/components/models/queries";

/** A job's model by name, linking to its page (jobs carry only the model's id). */
export function ModelName({ modelId }: { modelId: string }) {
  const model = useTrainedModel(modelId);
  const label = model.data ? model.data.name : model.isError ? "(deleted model)" : "…";
  return (
    <Link href={`/models/${modelId}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline" title={model.data ? `${model.data.entity}/${model.data.project}/${model.data.name}` : modelId}>
      {label}
    </Link>
  );
}
