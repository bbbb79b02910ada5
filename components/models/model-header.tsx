"use client";

import { DeleteModelDialog } from "@/components/models/delete-model-dialog";
import { TrainModelAction } from "@/components/models/model-jobs-slot";
import { inferenceName, OpenInPlayground } from "@/components/models/playground-link";
import type { TrainedModel } from "@/components/models/queries";
import { CopyButton } from "@/components/ui/copy-button";
import { DetailHeader, Fact } from "@/components/ui/detail-page";
import { RelativeTime } from "@/components/ui/relative-time";

/** Name, base model, steps, and what one does with a model: chat with it, train it, delete it. */
export function ModelHeader({ model }: { model: TrainedModel }) {
  const name = inferenceName(model);
  return (
    <div className="mb-6">
      <DetailHeader
        back={{ href: "/models", label: "Models" }}
        title={
          <>
            <span className="font-normal text-zinc-400">
              {model.entity}/{model.project}/
            </span>
            {model.name}
          </>
        }
        subtitle={
          <div className="mt-1 flex items-center gap-2">
            <code className="font-mono text-xs text-zinc-500">{name}</code>
            <CopyButton value={name} label="Copy name" className="!px-1.5 !py-0.5 !text-[11px]" />
          </div>
        }
        actions={
          <>
            <TrainModelAction model={model} />
            <OpenInPlayground model={name} />
            <DeleteModelDialog model={model} />
          </>
        }
      />
      <dl className="mt-4 grid grid-cols-2 gap-4 rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-xs sm:grid-cols-5">
        <Fact label="Base model">
          <span className="font-mono text-[13px]">{model.base_model}</span>
        </Fact>
        <Fact label="Training">
          <span data-testid="training-mode">{model.lora ? `LoRA · rank ${model.lora.rank}, alpha ${model.lora.alpha}` : "Full weights"}</span>
        </Fact>
        <Fact label="Current step">
          <span className="tabular-nums" data-testid="current-step">
            {model.current_step}
          </span>
        </Fact>
        <Fact label="Latest checkpoint">
          {model.latest_checkpoint_step === null ? <span className="text-zinc-500">none (serves the base)</span> : <span className="tabular-nums">step {model.latest_checkpoint_step}</span>}
        </Fact>
        <Fact label="Created">
          <RelativeTime iso={model.created_at} />
        </Fact>
      </dl>
    </div>
  );
}
