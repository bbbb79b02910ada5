"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { LaunchActions } from "@/components/jobs/launch-actions";
import { launchErrors } from "@/components/jobs/launch-errors";
import { ModeForms } from "@/components/jobs/mode-forms";
import { RlJudgementForm } from "@/components/jobs/rl-judgement-form";
import { PickTable, usePicked } from "@/components/jobs/pick-table";
import { useLaunchRl } from "@/components/jobs/queries";
import { useTrajectoryGroups, type TrainedModel, type TrajectoryGroup } from "@/components/models/queries";
import { Field, SelectField } from "@/components/ui/field";
import { JobCostEstimate } from "@/components/jobs/training-cost";
import { groupsToRlInput } from "@/lib/client/job-progress";
import { CHARACTERS_PER_TOKEN, exampleCharacters } from "@/lib/client/sft-plan";

const rewardFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });

/** The picked groups' trajectories and the characters of their messages and choices. */
function pickedSize(groups: TrajectoryGroup[]) {
  const trajectories = groups.flatMap((g) => g.trajectories);
  return { rows: trajectories.length, characters: trajectories.reduce((sum, t) => sum + exampleCharacters({ messages: t.messages_and_choices }), 0) };
}

/** RL from trajectory groups: the model's logged groups, or groups built from people's scores. */
export function RlGroupsForm({ model }: { model: TrainedModel }) {
  return (
    <ModeForms
      label="Groups"
      modes={[
        { id: "logged", label: "Logged groups", form: <LoggedGroupsForm model={model} /> },
        { id: "scored", label: "Human scores", form: <RlJudgementForm model={model} /> },
      ]}
    />
  );
}

/** The model's logged trajectory groups, picked by split and step. */
function LoggedGroupsForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const [split, setSplit] = useState("train");
  const [step, setStep] = useState("");
  const stepNumber = step.trim() === "" || !Number.isInteger(Number(step)) ? undefined : Number(step);
  const groups = useTrajectoryGroups(model.id, { split: split || undefined, step: stepNumber });
  const picking = usePicked<TrajectoryGroup>();
  const { picked } = picking;
  const [local, setLocal] = useState<Record<string, string>>({});
  const launch = useLaunchRl();
  const { fields, form } = launchErrors(launch.error, ["experimental_config.learning_rate"]);
  const errors = { ...fields, ...local };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const lr = String(new FormData(event.currentTarget).get("learning_rate") ?? "").trim();
    const invalid: Record<string, string> = {};
    if (lr && !(Number(lr) > 0)) invalid["experimental_config.learning_rate"] = "A positive number, e.g. 1e-5.";
    if (picked.size === 0) invalid.groups = "Pick at least one group.";
    setLocal(invalid);
    if (Object.keys(invalid).length) return;
    launch.mutate(
      { model_id: model.id, trajectory_groups: groupsToRlInput([...picked.values()]), ...(lr ? { experimental_config: { learning_rate: Number(lr) } } : {}) },
      { onSuccess: (job) => router.push(`/jobs/${job.id}`) },
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="RL from logged trajectory groups">
      <div className="grid grid-cols-3 items-end gap-3">
        <SelectField label="Split" value={split} onChange={(e) => setSplit(e.target.value)}>
          <option value="">any</option>
          <option value="train">train</option>
          <option value="val">val</option>
          <option value="test">test</option>
        </SelectField>
        <Field label="Step" value={step} onChange={(e) => setStep(e.target.value)} inputMode="numeric" placeholder="any" />
        <p className="pb-2 text-xs text-zinc-500" aria-live="polite">
          {picked.size} picked
        </p>
      </div>
      <PickTable
        query={groups}
        rows={groups.data ?? []}
        picking={picking}
        label="Trajectory groups"
        noun="group"
        loading="Loading trajectory groups"
        what="trajectory groups"
        empty={
          <>
            No {split ? `${split} ` : ""}groups logged{stepNumber !== undefined ? ` at step ${stepNumber}` : ""}. Log rollouts with POST /v1/preview/models/{"{id}"}/log (ART’s model.log()), with each answer as the chat completion Choice it was.
          </>
        }
        head={
          <>
            <th className="px-2 py-2 font-medium">Split</th>
            <th className="px-2 py-2 text-right font-medium">Step</th>
            <th className="px-2 py-2 text-right font-medium">Trajectories</th>
            <th className="px-2 py-2 text-right font-medium">Mean reward</th>
          </>
        }
        cells={(group) => (
          <>
            <td className="px-2 py-2">{group.split}</td>
            <td className="px-2 py-2 text-right tabular-nums">{group.step}</td>
            <td className="px-2 py-2 text-right tabular-nums">{group.trajectories.length}</td>
            <td className="px-2 py-2 text-right tabular-nums">{rewardFormat.format(group.reward_mean)}</td>
          </>
        )}
      />
      {errors.groups && <p className="-mt-2 text-xs text-red-600">{errors.groups}</p>}
      {picked.size > 0 && <PickedCost model={model} groups={[...picked.values()]} />}
      <Field label="Learning rate" name="learning_rate" inputMode="decimal" placeholder="model default" error={errors["experimental_config.learning_rate"]} className="max-w-48" />
      <LaunchActions error={form} label={`Train on ${picked.size} group${picked.size === 1 ? "" : "s"}`} pending={launch.isPending} />
    </form>
  );
}

function PickedCost({ model, groups }: { model: TrainedModel; groups: TrajectoryGroup[] }) {
  const { rows, characters } = pickedSize(groups);
  return <JobCostEstimate model={model} tokens={Math.ceil(characters / CHARACTERS_PER_TOKEN)} rlRows={rows} />;
}
