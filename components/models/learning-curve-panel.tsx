"use client";

import { useId, useMemo, useState } from "react";
import { LearningCurveChart } from "@/components/models/learning-curve-chart";
import { useLearningCurve } from "@/components/models/queries";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { axisEnd, curveFamilies, jobSpans } from "@/lib/client/learning-curve";

/** The model's metrics across all of its jobs on one axis (the global gradient step), one metric at
 *  a time, picked from those present; refreshed while a job runs. */
export function LearningCurvePanel({ modelId }: { modelId: string }) {
  const curve = useLearningCurve(modelId);
  const families = useMemo(() => (curve.data ? curveFamilies(curve.data) : []), [curve.data]);
  const spans = useMemo(() => (curve.data ? jobSpans(curve.data) : []), [curve.data]);
  const [picked, setPicked] = useState<string>();
  const family = families.find((f) => f.name === picked) ?? families[0];
  const pickerId = useId();

  return (
    <Panel
      title="Metrics"
      description="Across all of the model's jobs, by gradient step: a band per job; a checkpoint's metrics (train/…, val/…, logged) sit at the end of the job that wrote it, the base model's at 0."
      actions={
        families.length > 0 && (
          <div className="flex items-center gap-2">
            <label htmlFor={pickerId} className="text-xs font-medium text-zinc-600">
              Metric
            </label>
            <select
              id={pickerId}
              value={family?.name}
              onChange={(e) => setPicked(e.target.value)}
              className="rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 font-mono text-xs text-zinc-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            >
              {families.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name} ({f.keys.join(", ")})
                </option>
              ))}
            </select>
          </div>
        )
      }
    >
      {curve.isPending ? (
        <div role="status" aria-label="Loading metrics" className="p-4">
          <Skeleton className="h-64" />
        </div>
      ) : curve.isError ? (
        <QueryError what="metrics" error={curve.error} retry={() => void curve.refetch()} />
      ) : !family ? (
        <p className="px-4 py-8 text-center text-sm text-zinc-500">
          No metrics yet. Train the model or log trajectory groups (below): rewards, losses and validation metrics appear here across its jobs.
        </p>
      ) : (
        <div className="p-4">
          <LearningCurveChart family={family} spans={spans} end={axisEnd(curve.data)} />
        </div>
      )}
    </Panel>
  );
}
