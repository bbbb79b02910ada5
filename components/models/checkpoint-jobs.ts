"use client";

import { useMemo } from "react";
import { useLearningCurve } from "@/components/models/queries";
import type { JobWarning } from "@/lib/client/learning-curve";

export interface CheckpointJob {
  id: string;
  warnings: JobWarning[];
}

/** Which job wrote each checkpoint step of a model (from its learning curve), to link a checkpoint
 *  back to the job that produced it and show that job's warnings beside it. */
export function useCheckpointJobs(modelId: string): Map<number, CheckpointJob> {
  const { data } = useLearningCurve(modelId);
  return useMemo(() => {
    const warnings = new Map(data?.jobs.map((j) => [j.id, j.warnings]) ?? []);
    return new Map(data?.model_steps.flatMap((s) => (s.job_id ? [[s.step, { id: s.job_id, warnings: warnings.get(s.job_id) ?? [] }] as const] : [])) ?? []);
  }, [data]);
}
