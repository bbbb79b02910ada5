"use client";

import { useMemo } from "react";
import { MetricChart } from "@/components/models/metric-charts";
import { metricFamilies } from "@/components/models/metric-series";
import { useModelMetrics } from "@/components/models/queries";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";

/** Every metric over steps: training metrics of each checkpoint and those logged at each step. */
export function MetricsPanel({ modelId }: { modelId: string }) {
  const metrics = useModelMetrics(modelId);
  const families = useMemo(() => (metrics.data ? metricFamilies(metrics.data) : []), [metrics.data]);
  return (
    <Panel title="Metrics" description="By step: from training (train/…) and from logged trajectory groups (per split).">
      {metrics.isPending ? (
        <div role="status" aria-label="Loading metrics" className="grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3">
          <Skeleton className="h-52" />
          <Skeleton className="h-52" />
        </div>
      ) : metrics.isError ? (
        <QueryError what="metrics" error={metrics.error} retry={() => void metrics.refetch()} />
      ) : families.length === 0 ? (
        <p className="px-4 py-8 text-center text-sm text-zinc-500">
          No metrics yet. Log trajectory groups (below) or train the model: rewards and losses appear here by step.
        </p>
      ) : (
        <div className="grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3">
          {families.map((family) => (
            <MetricChart key={family.name} family={family} />
          ))}
        </div>
      )}
    </Panel>
  );
}
