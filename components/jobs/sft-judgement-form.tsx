"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { EMPTY_RULE, ruleBody, RuleFields, type RuleDraft } from "@/components/jobs/judgement-rule";
import { EMPTY_SOURCE, JudgedSourceFields, sourceBody, useSourceCorrectedSpec, useSourceSpecs, type JudgedSource } from "@/components/jobs/judgement-source";
import { LaunchActions } from "@/components/jobs/launch-actions";
import { launchErrors } from "@/components/jobs/launch-errors";
import { LeftOutList } from "@/components/jobs/left-out-list";
import { useBuildSftDataset, useLaunchSft, type SftDataset } from "@/components/jobs/queries";
import { readSftConfig, SftConfigFields } from "@/components/jobs/sft-config-fields";
import type { TrainedModel } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";

// SFT from human judgement: the calls of a queue (or a project) whose annotation passes a rule,
// with corrected replies in place of the model's (a queue's own corrected-reply spec is preselected). "Build dataset" saves the JSONL file on the
// server and says what it used and left out; the job then trains the model on that file, and
// keeps where it came from.

const SHOWN = ["config.batch_size", "config.learning_rate", "config.assistant_turns"];

function Summary({ dataset }: { dataset: SftDataset }) {
  return (
    <div className="space-y-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2" aria-label="Dataset" role="status">
      <p className="text-sm text-zinc-800">
        {dataset.matched} calls matched, <strong>{dataset.used} used</strong> ({dataset.corrected} with a corrected reply)
        {dataset.file && <span className="text-zinc-500"> · {dataset.file.filename}</span>}
      </p>
      <LeftOutList leftOut={dataset.left_out} />
    </div>
  );
}

export function SftJudgementForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const [source, setSource] = useState<JudgedSource>(EMPTY_SOURCE);
  const [rule, setRule] = useState<RuleDraft>(EMPTY_RULE);
  const [corrected, setCorrected] = useState("");
  const specs = useSourceSpecs(source);
  const queueCorrectedSpec = useSourceCorrectedSpec();
  const build = useBuildSftDataset();
  const launch = useLaunchSft();
  const [local, setLocal] = useState<Record<string, string>>({});
  const { fields, form } = launchErrors(launch.error, SHOWN);
  const errors = { ...fields, ...local };
  const dataset = build.data;

  /** Any change to what the dataset is built from makes the built one stale. */
  const changed = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    build.reset();
  };

  function onBuild() {
    const from = sourceBody(source);
    const body = ruleBody(rule, specs.find((s) => s.name === rule.spec));
    const invalid: Record<string, string> = {};
    if (!from) invalid.source = "Choose a queue or a project.";
    if (typeof body === "string") invalid.rule = body;
    if (!body && !corrected) invalid.rule = "Set a rule, a corrected-reply spec, or both.";
    setLocal(invalid);
    if (Object.keys(invalid).length) return;
    build.mutate({ ...from!, ...(body && typeof body !== "string" ? { rule: body } : {}), ...(corrected ? { corrected_reply_spec: corrected } : {}) });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { config, errors: invalid } = readSftConfig(new FormData(event.currentTarget));
    if (!dataset?.file) invalid.source = "Build a dataset with at least one example first.";
    setLocal(invalid);
    if (Object.keys(invalid).length) return;
    launch.mutate({ model_id: model.id, training_data_url: dataset!.file!.id, config }, { onSuccess: (job) => router.push(`/jobs/${job.id}`) });
  }

  const buildError = launchErrors(build.error, []).form;
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="SFT from judgement">
      <JudgedSourceFields
        value={source}
        onChange={changed((next: JudgedSource) => {
          setSource(next);
          // A queue that asks for a corrected reply: its corrections are what its annotators wrote for training
          // (preselected when the queue changes, not when only "accepted items" is toggled over a picked spec).
          const fix = queueCorrectedSpec(next);
          const sameQueue = next.kind === "queue" && source.kind === "queue" && next.queueId === source.queueId;
          if (fix !== null && !sameQueue) setCorrected(fix);
        })}
      />
      {errors.source && <p className="-mt-2 text-xs text-red-600">{errors.source}</p>}
      <RuleFields specs={specs} value={rule} onChange={changed(setRule)} error={errors.rule} />
      {errors.rule && !rule.spec && <p className="-mt-2 text-xs text-red-600">{errors.rule}</p>}
      <div className="flex items-end gap-3">
        <SelectField label="Corrected replies" value={corrected} onChange={(e) => changed(setCorrected)(e.target.value)} hint="Trained instead of the model's reply, always" className="flex-1">
          <option value="">None</option>
          {specs
            .filter((s) => s.type === "corrected_reply")
            .map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
        </SelectField>
        <Button type="button" variant="secondary" size="sm" className="mb-5" onClick={onBuild} disabled={build.isPending}>
          {build.isPending ? "Building…" : "Build dataset"}
        </Button>
      </div>
      {dataset && <Summary dataset={dataset} />}
      {buildError && <Alert title="The dataset was not built">{buildError}</Alert>}
      <SftConfigFields model={model} errors={errors} />
      <LaunchActions error={form} label={dataset?.used ? `Train on ${dataset.used} example${dataset.used === 1 ? "" : "s"}` : "Train"} pending={launch.isPending} />
    </form>
  );
}
