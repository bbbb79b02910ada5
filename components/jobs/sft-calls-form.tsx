"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useModels } from "@/components/inference/queries";
import { launchErrors } from "@/components/jobs/launch-errors";
import { useCalls, useLaunchSft, type RecordedCall } from "@/components/jobs/queries";
import { readSftConfig, SftConfigFields } from "@/components/jobs/sft-config-fields";
import type { TrainedModel } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { DialogActions } from "@/components/ui/dialog";
import { SelectField } from "@/components/ui/field";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { callToExample } from "@/lib/client/job-progress";

const SHOWN = ["config.batch_size", "config.learning_rate", "config.assistant_turns"];

const text = (content: unknown) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (p as { text?: string }).text ?? "").join("") : "");
const lastUser = (call: RecordedCall) => text([...call.messages].reverse().find((m) => m.role === "user")?.content);

/** SFT from recorded calls: pick conversations (each with the answer it got) from a table. */
export function SftCallsForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const models = useModels();
  const [servedBy, setServedBy] = useState("");
  const calls = useCalls({ model: servedBy || undefined });
  const [picked, setPicked] = useState<Map<string, RecordedCall>>(new Map());
  const [local, setLocal] = useState<Record<string, string>>({});
  const launch = useLaunchSft();
  const { fields, form } = launchErrors(launch.error, SHOWN);
  const errors = { ...fields, ...local };
  const shown = (calls.data ?? []).filter((c) => c.output);
  const allShownPicked = shown.length > 0 && shown.every((c) => picked.has(c.id));

  function toggle(call: RecordedCall, on: boolean) {
    setPicked((current) => {
      const next = new Map(current);
      if (on) next.set(call.id, call);
      else next.delete(call.id);
      return next;
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { config, errors: invalid } = readSftConfig(new FormData(event.currentTarget));
    const examples = [...picked.values()].map(callToExample).filter((e) => e !== null);
    if (examples.length === 0) invalid.calls = "Pick at least one call.";
    setLocal(invalid);
    if (Object.keys(invalid).length) return;
    launch.mutate({ model_id: model.id, training_data: examples, config }, { onSuccess: (job) => router.push(`/jobs/${job.id}`) });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="SFT from recorded calls">
      <div className="flex items-end gap-3">
        <SelectField label="Served by" value={servedBy} onChange={(e) => setServedBy(e.target.value)} className="flex-1">
          <option value="">Any model</option>
          {(models.data ?? []).map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
            </option>
          ))}
        </SelectField>
        <p className="pb-2 text-xs text-zinc-500" aria-live="polite">
          {picked.size} picked
        </p>
      </div>
      <div className="max-h-64 overflow-y-auto rounded-lg border border-zinc-200">
        {calls.isPending ? (
          <TableSkeleton label="Loading calls" />
        ) : calls.isError ? (
          <QueryError what="recorded calls" error={calls.error} retry={() => void calls.refetch()} />
        ) : shown.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-zinc-500">No recorded calls{servedBy ? ` of ${servedBy}` : ""} yet. Chat in the playground or call /v1/chat/completions: every answer is recorded.</p>
        ) : (
          <table aria-label="Recorded calls" className="w-full text-left text-sm text-zinc-700">
            <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-500">
              <tr>
                <th className="w-8 px-3 py-2">
                  <input type="checkbox" aria-label="Pick every call shown" checked={allShownPicked} onChange={(e) => shown.forEach((c) => toggle(c, e.target.checked))} className="accent-brand-600" />
                </th>
                <th className="px-2 py-2 font-medium">Conversation</th>
                <th className="px-2 py-2 font-medium">Model</th>
                <th className="px-2 py-2 font-medium">When</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((call) => (
                <tr key={call.id} className="border-t border-zinc-100 hover:bg-zinc-50/60">
                  <td className="px-3 py-2">
                    <input type="checkbox" aria-label={`Pick call ${call.id}`} checked={picked.has(call.id)} onChange={(e) => toggle(call, e.target.checked)} className="accent-brand-600" />
                  </td>
                  <td className="max-w-56 px-2 py-2">
                    <p className="truncate text-zinc-900">{lastUser(call) || <span className="text-zinc-400">(no user message)</span>}</p>
                    <p className="truncate text-xs text-zinc-500">→ {text(call.output?.content)}</p>
                  </td>
                  <td className="max-w-32 truncate px-2 py-2 font-mono text-[11px] text-zinc-500">{call.model}</td>
                  <td className="px-2 py-2 text-xs whitespace-nowrap text-zinc-500">
                    <RelativeTime iso={call.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <LoadMoreFooter pages={calls} compact />
      </div>
      {errors.calls && <p className="-mt-2 text-xs text-red-600">{errors.calls}</p>}
      <SftConfigFields errors={errors} />
      {form && <Alert title="The job was not started">{form}</Alert>}
      <DialogActions label={`Train on ${picked.size} call${picked.size === 1 ? "" : "s"}`} pendingLabel="Starting…" pending={launch.isPending} />
    </form>
  );
}
