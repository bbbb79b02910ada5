"use client";

import { useState } from "react";
import { useWorkspace } from "@/components/identity/queries";
import { NewJobDialog } from "@/components/jobs/launch-job-dialog";
import { JobsTable } from "@/components/jobs/jobs-table";
import type { JobStatus } from "@/components/jobs/queries";
import { useTrainedModels } from "@/components/models/queries";
import { RlRunsPanel } from "@/components/rl-runs/rl-runs-table";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";

// The API's statuses (lib/training/jobs/schemas.ts is server code: not imported here).
const JOB_STATUSES: JobStatus[] = ["queued", "running", "succeeded", "failed", "cancelled"];
const FILTER_CLASS = "rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-[13px] text-zinc-800 shadow-xs focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

/** /jobs: every training job of the caller's teams, filtered by status and model. */
export function JobsView({ origin }: { origin: string }) {
  const { data: workspace } = useWorkspace();
  const models = useTrainedModels(workspace ? { entity: workspace.team } : undefined);
  const [status, setStatus] = useState<JobStatus | "">("");
  const [modelId, setModelId] = useState("");
  const filtered = Boolean(status || modelId);

  return (
    <>
      <PageHeader title="Jobs" description="RL and SFT training jobs: queued, running and finished, with live loss and reward curves." actions={<NewJobDialog />} />
      <RlRunsPanel modelId={modelId || undefined} />
      <Panel
        title="Training jobs"
        description="Newest first. Lists refresh themselves while a job is queued or running."
        actions={
          <>
            <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value as JobStatus | "")} className={FILTER_CLASS}>
              <option value="">All statuses</option>
              {JOB_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <select aria-label="Filter by model" value={modelId} onChange={(e) => setModelId(e.target.value)} className={FILTER_CLASS}>
              <option value="">All models</option>
              {(models.data ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.project}/{m.name}
                </option>
              ))}
            </select>
          </>
        }
      >
        <JobsTable
          filter={{ status: status || undefined, model_id: modelId || undefined }}
          empty={
            filtered ? (
              <p>No jobs match these filters.</p>
            ) : (
              <>
                <h3 className="text-sm font-semibold text-zinc-900">No training jobs yet</h3>
                <p className="mt-1">
                  Start one with <strong>New job</strong> (SFT from a JSONL file or recorded calls, RL from logged trajectory groups), or from code:
                </p>
                <pre className="mt-3 overflow-x-auto rounded-md bg-zinc-950 px-3 py-2 text-left font-mono text-[11px] leading-5 text-zinc-100">{`curl ${origin}/v1/preview/sft-training-jobs \\
  -H "Authorization: Bearer $ANNEAL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model_id": "<model id>", "training_data_url": "<file id>"}'`}</pre>
              </>
            )
          }
        />
      </Panel>
    </>
  );
}
