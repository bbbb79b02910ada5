"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { launchErrors } from "@/components/jobs/launch-errors";
import { useLaunchRl } from "@/components/jobs/queries";
import { useTrajectoryGroups, type TrainedModel, type TrajectoryGroup } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { DialogActions } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/field";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { groupsToRlInput } from "@/lib/client/job-progress";

const rewardFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });

/** RL from the model's logged trajectory groups, picked by split and step. */
export function RlGroupsForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const [split, setSplit] = useState("train");
  const [step, setStep] = useState("");
  const stepNumber = step.trim() === "" || !Number.isInteger(Number(step)) ? undefined : Number(step);
  const groups = useTrajectoryGroups(model.id, { split: split || undefined, step: stepNumber });
  const [picked, setPicked] = useState<Map<string, TrajectoryGroup>>(new Map());
  const [local, setLocal] = useState<Record<string, string>>({});
  const launch = useLaunchRl();
  const { fields, form } = launchErrors(launch.error, ["experimental_config.learning_rate"]);
  const errors = { ...fields, ...local };
  const shown = groups.data ?? [];
  const allShownPicked = shown.length > 0 && shown.every((g) => picked.has(g.id));

  function toggle(group: TrajectoryGroup, on: boolean) {
    setPicked((current) => {
      const next = new Map(current);
      if (on) next.set(group.id, group);
      else next.delete(group.id);
      return next;
    });
  }

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
      <div className="max-h-64 overflow-y-auto rounded-lg border border-zinc-200">
        {groups.isPending ? (
          <TableSkeleton label="Loading trajectory groups" />
        ) : groups.isError ? (
          <QueryError what="trajectory groups" error={groups.error} retry={() => void groups.refetch()} />
        ) : shown.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-zinc-500">
            No {split ? `${split} ` : ""}groups logged{stepNumber !== undefined ? ` at step ${stepNumber}` : ""}. Log rollouts with POST /v1/preview/models/{"{id}"}/log (ART’s model.log()), with each answer as the chat completion Choice it was.
          </p>
        ) : (
          <table aria-label="Trajectory groups" className="w-full text-left text-sm text-zinc-700">
            <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-500">
              <tr>
                <th className="w-8 px-3 py-2">
                  <input type="checkbox" aria-label="Pick every group shown" checked={allShownPicked} onChange={(e) => shown.forEach((g) => toggle(g, e.target.checked))} className="accent-brand-600" />
                </th>
                <th className="px-2 py-2 font-medium">Split</th>
                <th className="px-2 py-2 text-right font-medium">Step</th>
                <th className="px-2 py-2 text-right font-medium">Trajectories</th>
                <th className="px-2 py-2 text-right font-medium">Mean reward</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((group) => (
                <tr key={group.id} className="border-t border-zinc-100 hover:bg-zinc-50/60">
                  <td className="px-3 py-2">
                    <input type="checkbox" aria-label={`Pick group ${group.id}`} checked={picked.has(group.id)} onChange={(e) => toggle(group, e.target.checked)} className="accent-brand-600" />
                  </td>
                  <td className="px-2 py-2">{group.split}</td>
                  <td className="px-2 py-2 text-right tabular-nums">{group.step}</td>
                  <td className="px-2 py-2 text-right tabular-nums">{group.trajectories.length}</td>
                  <td className="px-2 py-2 text-right tabular-nums">{rewardFormat.format(group.reward_mean)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <LoadMoreFooter pages={groups} compact />
      </div>
      {errors.groups && <p className="-mt-2 text-xs text-red-600">{errors.groups}</p>}
      <Field label="Learning rate" name="learning_rate" inputMode="decimal" placeholder="model default" error={errors["experimental_config.learning_rate"]} className="max-w-48" />
      {form && <Alert title="The job was not started">{form}</Alert>}
      <DialogActions label={`Train on ${picked.size} group${picked.size === 1 ? "" : "s"}`} pendingLabel="Starting…" pending={launch.isPending} />
    </form>
  );
}
