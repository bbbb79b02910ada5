"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useModels } from "@/components/inference/queries";
import { LaunchActions } from "@/components/jobs/launch-actions";
import { launchErrors } from "@/components/jobs/launch-errors";
import { PickTable, usePicked } from "@/components/jobs/pick-table";
import { ModeForms } from "@/components/jobs/mode-forms";
import { useCalls, useLaunchSft, type RecordedCall } from "@/components/jobs/queries";
import { readSftConfig, SftConfigFields } from "@/components/jobs/sft-config-fields";
import { SftJudgementForm } from "@/components/jobs/sft-judgement-form";
import type { TrainedModel } from "@/components/models/queries";
import { SelectField } from "@/components/ui/field";
import { RelativeTime } from "@/components/ui/relative-time";
import { callToExample } from "@/lib/client/job-progress";
import { exampleCharacters } from "@/lib/client/sft-plan";

const SHOWN = ["config.batch_size", "config.learning_rate", "config.assistant_turns"];

const text = (content: unknown) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (p as { text?: string }).text ?? "").join("") : "");
const lastUser = (call: RecordedCall) => text([...call.messages].reverse().find((m) => m.role === "user")?.content);

const chosenExamples = (calls: RecordedCall[]) => {
  const examples = calls.map(callToExample);
  return { count: examples.length, first: examples[0] ?? null, characters: examples.reduce((sum, e) => sum + (e ? exampleCharacters(e) : 0), 0) };
};

/** SFT from recorded calls: picked from a table, or chosen by people's judgement (a queue's or a
 *  project's annotated calls, with corrected replies). */
export function SftCallsForm({ model }: { model: TrainedModel }) {
  return (
    <ModeForms
      label="Calls"
      modes={[
        { id: "pick", label: "Pick calls", form: <PickCallsForm model={model} /> },
        { id: "judged", label: "By judgement", form: <SftJudgementForm model={model} /> },
      ]}
    />
  );
}

/** Pick conversations (each with the answer it got) from a table. */
function PickCallsForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const models = useModels();
  const [servedBy, setServedBy] = useState("");
  const calls = useCalls({ model: servedBy || undefined });
  const picking = usePicked<RecordedCall>();
  const { picked } = picking;
  const [local, setLocal] = useState<Record<string, string>>({});
  const launch = useLaunchSft();
  const { fields, form } = launchErrors(launch.error, SHOWN);
  const errors = { ...fields, ...local };

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
      <PickTable
        query={calls}
        rows={(calls.data ?? []).filter((c) => c.output)}
        picking={picking}
        label="Recorded calls"
        noun="call"
        loading="Loading calls"
        what="recorded calls"
        empty={`No recorded calls${servedBy ? ` of ${servedBy}` : ""} yet. Chat in the playground or call /v1/chat/completions: every answer is recorded.`}
        head={
          <>
            <th className="px-2 py-2 font-medium">Conversation</th>
            <th className="px-2 py-2 font-medium">Model</th>
            <th className="px-2 py-2 font-medium">When</th>
          </>
        }
        cells={(call) => (
          <>
            <td className="max-w-56 px-2 py-2">
              <p className="truncate text-zinc-900">{lastUser(call) || <span className="text-zinc-400">(no user message)</span>}</p>
              <p className="truncate text-xs text-zinc-500">→ {text(call.output?.content)}</p>
            </td>
            <td className="max-w-32 truncate px-2 py-2 font-mono text-[11px] text-zinc-500">{call.model}</td>
            <td className="px-2 py-2 text-xs whitespace-nowrap text-zinc-500">
              <RelativeTime iso={call.created_at} />
            </td>
          </>
        )}
      />
      {errors.calls && <p className="-mt-2 text-xs text-red-600">{errors.calls}</p>}
      <SftConfigFields model={model} errors={errors} examples={chosenExamples([...picked.values()])} />
      <LaunchActions error={form} label={`Train on ${picked.size} call${picked.size === 1 ? "" : "s"}`} pending={launch.isPending} />
    </form>
  );
}
