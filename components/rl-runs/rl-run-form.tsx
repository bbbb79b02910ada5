"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { LaunchActions } from "@/components/jobs/launch-actions";
import { launchErrors } from "@/components/jobs/launch-errors";
import { PickTable, usePicked } from "@/components/jobs/pick-table";
import { useCalls, type RecordedCall } from "@/components/jobs/queries";
import type { TrainedModel } from "@/components/models/queries";
import { useTeamQueues } from "@/components/queues/queries";
import { useLaunchRlRun } from "@/components/rl-runs/queries";
import { Field, INPUT_CLASS, SelectField, TextAreaField } from "@/components/ui/field";
import { CHECKER_CHOICES, parsePastedPrompts, readRlRunSettings, type CheckerType, type PromptsInput } from "@/lib/client/rl-run-input";

// An RL run from the console: prompts (pasted, a JSONL file, recorded calls or a queue's items), a
// built-in checker as the reward, and the loop's sizes. The server runs the iterations; on success
// the run's page opens with its reward curve.

const PROMPT_SOURCES = [
  { id: "paste", label: "Paste JSONL" },
  { id: "file", label: "JSONL file" },
  { id: "calls", label: "Recorded calls" },
  { id: "queue", label: "Annotation queue" },
] as const;
type PromptSourceChoice = (typeof PROMPT_SOURCES)[number]["id"];

const SHOWN = ["prompts", "prompts.items", "prompts.file_id", "checker.pattern", "checker.flags", "checker.schema", "checker.min", "checker.max", "checker.tolerance",
  "group_size", "iterations", "prompts_per_iteration", "temperature", "max_tokens", "seed", "experimental_config.learning_rate"];

const EXAMPLE = '{"messages": [{"role": "user", "content": "What is 2 + 3?"}], "reference": "5"}';
const text = (content: unknown) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (p as { text?: string }).text ?? "").join("") : "");
const lastUser = (call: RecordedCall) => text([...call.messages].reverse().find((m) => m.role === "user")?.content);

function CheckerFields({ type, errors }: { type: CheckerType; errors: Record<string, string> }) {
  switch (type) {
    case "exact_match":
      return (
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          <input type="checkbox" name="checker.ignore_case" className="size-3.5 accent-brand-600" /> Ignore case
        </label>
      );
    case "numeric_match":
      return <Field label="Tolerance" name="checker.tolerance" inputMode="decimal" defaultValue="0" error={errors["checker.tolerance"]} className="max-w-40" hint="The reply's last number may differ from the reference's by this much." />;
    case "regex":
      return (
        <div className="grid grid-cols-[1fr_8rem] gap-3">
          <Field label="Pattern" name="checker.pattern" placeholder="^\d+$" error={errors["checker.pattern"]} hint="Reward 1 when the reply matches (JavaScript syntax)." />
          <Field label="Flags" name="checker.flags" placeholder="i, m, s, u" error={errors["checker.flags"]} />
        </div>
      );
    case "json_schema":
      return <TextAreaField label="JSON schema" name="checker.schema" rows={4} defaultValue={'{"type": "object"}'} error={errors["checker.schema"]} className="font-mono" />;
    case "length":
      return (
        <div className="grid grid-cols-2 gap-3">
          <Field label="Min characters" name="checker.min" inputMode="numeric" defaultValue="1" error={errors["checker.min"]} />
          <Field label="Max characters" name="checker.max" inputMode="numeric" defaultValue="40" error={errors["checker.max"]} />
        </div>
      );
  }
}

function SizeFields({ errors }: { errors: Record<string, string> }) {
  return (
    <div className="grid grid-cols-3 gap-3">
      <Field label="Group size" name="group_size" inputMode="numeric" defaultValue="4" error={errors.group_size} hint="Replies per prompt" />
      <Field label="Iterations" name="iterations" inputMode="numeric" defaultValue="4" error={errors.iterations} hint="One RL job each" />
      <Field label="Prompts per iteration" name="prompts_per_iteration" inputMode="numeric" defaultValue="8" error={errors.prompts_per_iteration} />
      <Field label="Temperature" name="temperature" inputMode="decimal" defaultValue="1" error={errors.temperature} />
      <Field label="Max tokens" name="max_tokens" inputMode="numeric" defaultValue="32" error={errors.max_tokens} />
      <Field label="Learning rate" name="learning_rate" inputMode="decimal" placeholder="model default" error={errors["experimental_config.learning_rate"]} />
      <Field label="Seed" name="seed" inputMode="numeric" placeholder="random" error={errors.seed} hint="Empty: random; a seed replays the rollouts" />
    </div>
  );
}

export function RlRunForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const [source, setSource] = useState<PromptSourceChoice>("paste");
  const [checker, setChecker] = useState<CheckerType>("exact_match");
  const calls = useCalls({}, { enabled: source === "calls" });
  const picking = usePicked<RecordedCall>();
  const queues = useTeamQueues(source === "queue" ? model.entity : undefined);
  const [local, setLocal] = useState<Record<string, string>>({});
  const launch = useLaunchRlRun();
  const { fields, form } = launchErrors(launch.error, SHOWN);
  const errors = { ...fields, ...local };
  const promptsError = errors.prompts ?? errors["prompts.items"] ?? errors["prompts.file_id"];

  function readPrompts(data: FormData, invalid: Record<string, string>): { prompts?: PromptsInput; file?: File } {
    switch (source) {
      case "paste": {
        const pasted = parsePastedPrompts(String(data.get("prompts_jsonl") ?? ""));
        if (pasted.error) invalid.prompts = pasted.error;
        return { prompts: { source: "inline", items: pasted.items } };
      }
      case "file": {
        const file = data.get("file");
        if (!(file instanceof File) || file.size === 0) invalid.prompts = "Choose a .jsonl file of prompts.";
        return { file: file as File };
      }
      case "calls":
        if (picking.picked.size === 0) invalid.prompts = "Pick at least one call.";
        return { prompts: { source: "calls", call_ids: [...picking.picked.keys()] } };
      case "queue": {
        const queueId = String(data.get("queue_id") ?? "");
        if (!queueId) invalid.prompts = "Choose a queue.";
        return { prompts: { source: "queue", queue_id: queueId } };
      }
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const { settings, errors: invalid } = readRlRunSettings(data);
    const { prompts, file } = readPrompts(data, invalid);
    setLocal(invalid);
    if (Object.keys(invalid).length) return;
    launch.mutate({ body: { model_id: model.id, ...settings, prompts }, file, team: model.entity }, { onSuccess: (run) => router.push(`/jobs/rl-runs/${run.id}`) });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="RL run">
      <p className="text-xs text-zinc-500">
        The server samples replies to each prompt from the newest checkpoint, scores them with the checker, trains one RL job per iteration and samples the next iteration from its checkpoint.
      </p>
      <SelectField label="Prompts" value={source} onChange={(e) => setSource(e.target.value as PromptSourceChoice)}>
        {PROMPT_SOURCES.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </SelectField>
      {source === "paste" && (
        <TextAreaField label="Prompts (JSONL)" name="prompts_jsonl" rows={4} placeholder={EXAMPLE} error={promptsError} className="font-mono text-xs" hint="One prompt per line; reference is the expected answer (for exact and numeric match)." />
      )}
      {source === "file" && (
        <div>
          <label htmlFor="rl-run-file" className="mb-1.5 block text-sm font-medium text-zinc-800">
            Prompts file (JSONL)
          </label>
          <input id="rl-run-file" name="file" type="file" accept=".jsonl,.json,application/jsonl,text/plain" className={INPUT_CLASS} aria-invalid={promptsError ? true : undefined} />
          <p className={`mt-1 text-xs ${promptsError ? "text-red-600" : "text-zinc-500"}`}>{promptsError ?? <>One <code className="font-mono">{'{"messages": [...], "reference": "..."}'}</code> per line.</>}</p>
        </div>
      )}
      {source === "calls" && (
        <>
          <PickTable
            query={calls}
            rows={calls.data ?? []}
            picking={picking}
            label="Recorded calls"
            noun="call"
            loading="Loading calls"
            what="recorded calls"
            empty="No recorded calls yet. Chat in the playground or call /v1/chat/completions: every call is recorded."
            head={<th className="px-2 py-2 font-medium">Prompt (messages up to the last user turn)</th>}
            cells={(call) => <td className="max-w-96 truncate px-2 py-2 text-zinc-900">{lastUser(call) || <span className="text-zinc-400">(no user message)</span>}</td>}
          />
          <p className={`-mt-2 text-xs ${promptsError ? "text-red-600" : "text-zinc-500"}`}>{promptsError ?? "A call's reference is its newest corrected reply, if one was given."}</p>
        </>
      )}
      {source === "queue" && (
        <SelectField label="Queue" name="queue_id" defaultValue="" error={promptsError} hint="Its items' calls; each reference is the call's newest corrected reply, if any.">
          <option value="">{queues.isPending ? "Loading…" : "Choose a queue"}</option>
          {(queues.data ?? []).map((q) => (
            <option key={q.id} value={q.id}>
              {q.name} ({q.project})
            </option>
          ))}
        </SelectField>
      )}
      <SelectField label="Reward checker" name="checker.type" value={checker} onChange={(e) => setChecker(e.target.value as CheckerType)}>
        {CHECKER_CHOICES.map((c) => (
          <option key={c.type} value={c.type}>
            {c.label}
          </option>
        ))}
      </SelectField>
      <CheckerFields key={checker} type={checker} errors={errors} />
      <SizeFields errors={errors} />
      <LaunchActions error={form} label="Start RL run" pending={launch.isPending} what="run" />
    </form>
  );
}
