"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { EMPTY_SOURCE, JudgedSourceFields, sourceBody, useSourceSpecs, type JudgedSource } from "@/components/jobs/judgement-source";
import { LaunchActions } from "@/components/jobs/launch-actions";
import { launchErrors } from "@/components/jobs/launch-errors";
import { LeftOutList } from "@/components/jobs/left-out-list";
import { useLaunchRlFromJudgement, usePreviewRlGroups, type RlGroupsPreview } from "@/components/jobs/queries";
import type { TrainedModel } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";

// RL from human scores: the server groups judged calls (a call's n ≥ 2 choices, or calls with the
// same prompt) with each trajectory's reward the annotation's value. The preview shows every group,
// its size and rewards, and the groups of one that are left out (with the warning) before launching.

const rewardFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });
type Group = RlGroupsPreview["groups"][number];

function GroupRows({ groups, caption }: { groups: Group[]; caption: string }) {
  return (
    <table className="w-full text-left text-xs" aria-label={caption}>
      <thead className="text-zinc-500">
        <tr>
          <th className="px-2 py-1 font-medium">Prompt</th>
          <th className="px-2 py-1 font-medium">Group</th>
          <th className="px-2 py-1 text-right font-medium">Size</th>
          <th className="px-2 py-1 text-right font-medium">Rewards</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {groups.map((group) => (
          <tr key={`${group.kind}:${group.trajectories[0].call_id}`}>
            <td className="max-w-56 truncate px-2 py-1 text-zinc-900">{group.prompt || <span className="text-zinc-400">(no user message)</span>}</td>
            <td className="px-2 py-1 text-zinc-500">{group.kind === "choices" ? "choices of one call" : "same prompt"}</td>
            <td className="px-2 py-1 text-right tabular-nums">{group.trajectories.length}</td>
            <td className="px-2 py-1 text-right font-mono tabular-nums">{group.trajectories.map((t) => rewardFormat.format(t.reward)).join(" ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Preview({ preview }: { preview: RlGroupsPreview }) {
  return (
    <div className="space-y-2" role="status" aria-label="Groups preview">
      <p className="text-sm text-zinc-800">
        {preview.matched} calls matched: <strong>{preview.groups.length} groups</strong> of {preview.trajectories} trajectories to train on.
      </p>
      {preview.groups.length > 0 && (
        <div className="max-h-56 overflow-y-auto rounded-md border border-zinc-200">
          <GroupRows groups={preview.groups} caption="Groups to train" />
        </div>
      )}
      {preview.warnings.map((warning) => (
        <Alert key={warning} tone="warning">
          {warning}
        </Alert>
      ))}
      {preview.singles.length > 0 && (
        <div className="max-h-40 overflow-y-auto rounded-md border border-amber-200">
          <GroupRows groups={preview.singles} caption="Left out: groups of one" />
        </div>
      )}
      <LeftOutList leftOut={preview.left_out.filter((l) => l.reason !== "single_trajectory")} />
    </div>
  );
}

export function RlJudgementForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const [source, setSource] = useState<JudgedSource>(EMPTY_SOURCE);
  const [rewardSpec, setRewardSpec] = useState("");
  const specs = useSourceSpecs(source);
  const preview = usePreviewRlGroups();
  const launch = useLaunchRlFromJudgement();
  const [local, setLocal] = useState<Record<string, string>>({});
  const { fields, form } = launchErrors(launch.error, ["experimental_config.learning_rate"]);
  const errors = { ...fields, ...local };

  const request = () => {
    const from = sourceBody(source);
    const invalid: Record<string, string> = {};
    if (!from) invalid.source = "Choose a queue or a project.";
    if (!rewardSpec) invalid.reward = "Choose the spec whose value is the reward.";
    setLocal(invalid);
    return Object.keys(invalid).length ? null : { ...from!, reward_spec: rewardSpec };
  };

  function onPreview() {
    const body = request();
    if (body) preview.mutate(body);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const lr = String(new FormData(event.currentTarget).get("learning_rate") ?? "").trim();
    const body = request();
    if (!body) return;
    if (lr && !(Number(lr) > 0)) {
      setLocal({ "experimental_config.learning_rate": "A positive number, e.g. 1e-5." });
      return;
    }
    launch.mutate(
      { ...body, model_id: model.id, ...(lr ? { experimental_config: { learning_rate: Number(lr) } } : {}) },
      { onSuccess: (job) => router.push(`/jobs/${job.id}`) },
    );
  }

  const groups = preview.data?.groups.length ?? 0;
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="RL from human scores">
      <JudgedSourceFields
        value={source}
        onChange={(next) => {
          setSource(next);
          preview.reset();
        }}
      />
      {errors.source && <p className="-mt-2 text-xs text-red-600">{errors.source}</p>}
      <div className="flex items-end gap-3">
        <SelectField label="Reward" value={rewardSpec} onChange={(e) => {
            setRewardSpec(e.target.value);
            preview.reset();
          }} error={errors.reward} hint="Numeric, or boolean (true = 1)" className="flex-1">
          <option value="">Choose a spec</option>
          {specs
            .filter((s) => s.type === "numeric" || s.type === "boolean")
            .map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} ({s.type})
              </option>
            ))}
        </SelectField>
        <Button type="button" variant="secondary" size="sm" className="mb-5" disabled={preview.isPending} onClick={onPreview}>
          {preview.isPending ? "Grouping…" : "Preview groups"}
        </Button>
      </div>
      {preview.data && <Preview preview={preview.data} />}
      {preview.error && <Alert title="No preview">{launchErrors(preview.error, []).form}</Alert>}
      <Field label="Learning rate" name="learning_rate" inputMode="decimal" placeholder="model default" error={errors["experimental_config.learning_rate"]} className="max-w-48" />
      <LaunchActions error={form} label={groups ? `Train on ${groups} group${groups === 1 ? "" : "s"}` : "Train"} pending={launch.isPending} />
    </form>
  );
}
