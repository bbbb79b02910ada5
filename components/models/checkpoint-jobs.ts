"use client";

import { useMemo } from "react";
import { useLearningCurve } from "@/components/models/queries";

/** Which job wrote each checkpoint step of a model (from its learning curve), to link a checkpoint
 *  back to the job that produced it. */
export function useCheckpointJobs(modelId: string): Map<number, string> {
  const { data } = useLearningCurve(modelId);
  return useMemo(() => new Map(data?.model_steps.flatMap((s) => (s.job_id ? [[s.step, s.job_id] as const] : [])) ?? []), [data]);
}
