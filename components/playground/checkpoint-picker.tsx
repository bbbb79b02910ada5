"use client";

import Link from "next/link";
import { useMemo } from "react";
import { CheckpointWarnings } from "@/components/models/checkpoint-warnings";
import { useLearningCurve, useTrainedModelByName } from "@/components/models/queries";
import { formatRelative, RelativeTime } from "@/components/ui/relative-time";
import { errorMessage } from "@/lib/client/api-fetch";
import { checkpointOptions, type CheckpointOption } from "@/lib/client/learning-curve";

// A trained model's checkpoint for one column: "latest", or one of its checkpoints listed with
// when it was written, the number that best tells them apart (named for what it is: a best
// epoch's val/loss is not the job's last), the job that wrote it and how many warnings that job
// raised (the model's learning curve, GET .../learning-curve); the chosen one's job links to its
// page, and its warnings are listed under the picker.

const value = new Intl.NumberFormat("en", { maximumSignificantDigits: 3 });

function optionText(o: CheckpointOption): string {
  const parts = [`step ${o.step}`, o.step === 0 ? "base model" : o.createdAt ? formatRelative(o.createdAt) : null];
  if (o.keyMetric) parts.push(`${o.keyMetric[0]} ${value.format(o.keyMetric[1])}`);
  if (o.job) parts.push(o.job.label);
  if (o.job?.warnings.length) parts.push(`⚠ ${o.job.warnings.length} warning${o.job.warnings.length === 1 ? "" : "s"}`);
  return parts.filter(Boolean).join(" · ");
}

/** `model`: the trained model's inference name; `step`: "" for its latest checkpoint. */
export function CheckpointPicker({ id, className, model, step, onChange }: { id: string; className: string; model: string; step: string; onChange: (step: string) => void }) {
  const trained = useTrainedModelByName(model);
  const curve = useLearningCurve(trained.data?.id);
  const options = useMemo(() => (curve.data ? checkpointOptions(curve.data) : []), [curve.data]);
  const chosen = options.find((o) => String(o.step) === step);
  const failure = trained.error ?? curve.error;

  return (
    <div className="space-y-1">
      <select id={id} value={step} onChange={(e) => onChange(e.target.value)} className={className}>
        <option value="">Latest{options.length > 1 ? ` (step ${options[0].step})` : ""}</option>
        {options.map((o) => (
          <option key={o.step} value={String(o.step)}>
            {optionText(o)}
          </option>
        ))}
        {step !== "" && !chosen && <option value={step}>step {step}</option>}
      </select>
      {failure ? (
        <p role="alert" className="text-[11px] text-red-600">
          Could not list its checkpoints: {errorMessage(failure)}
        </p>
      ) : chosen ? (
        // The whole option, which the narrow select cuts short, with its job as a link.
        <p data-testid="checkpoint-source" className="text-[11px] text-zinc-500">
          {chosen.job ? (
            <>
              Written by{" "}
              <Link href={`/jobs/${chosen.job.id}`} className="font-mono text-brand-700 hover:underline">
                {chosen.job.label}
              </Link>
              , <RelativeTime iso={chosen.createdAt} />
            </>
          ) : chosen.step === 0 ? (
            "The base model, before any training"
          ) : (
            <RelativeTime iso={chosen.createdAt} />
          )}
          {chosen.keyMetric && <span className="font-mono"> · {chosen.keyMetric[0]} {value.format(chosen.keyMetric[1])}</span>}
        </p>
      ) : null}
      {chosen?.job && <CheckpointWarnings warnings={chosen.job.warnings} />}
    </div>
  );
}
