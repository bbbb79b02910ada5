"use client";

import { Boxes } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useWorkspace } from "@/components/identity/queries";
import { CreateModelDialog } from "@/components/models/create-model-dialog";
import { createModelSnippet, Snippet } from "@/components/models/create-model-snippet";
import { inferenceName, OpenInPlayground } from "@/components/models/playground-link";
import { useTrainedModels, type TrainedModel } from "@/components/models/queries";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { EmptyState } from "@/components/ui/empty-state";
import { CheckboxLabel } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";

/** The workspace's trained models (its project, or every project of its team), newest first. */
export function TrainedModelsPanel({ origin }: { origin: string }) {
  const { data: workspace } = useWorkspace();
  const [allProjects, setAllProjects] = useState(false);
  const scope = workspace ? (allProjects ? { entity: workspace.team } : { project: `${workspace.team}/${workspace.project}` }) : undefined;
  const models = useTrainedModels(scope);
  const where = workspace ? (allProjects ? workspace.team : `${workspace.team}/${workspace.project}`) : "";

  return (
    <Panel
      title={`Trained models in ${where}`}
      description="Each has checkpoints by step; step 0 is its base model."
      actions={<CheckboxLabel label="All projects of the team" checked={allProjects} onChange={setAllProjects} />}
    >
      {models.isPending ? (
        <TableSkeleton label="Loading trained models" />
      ) : models.isError ? (
        <QueryError what="trained models" error={models.error} retry={() => void models.refetch()} />
      ) : models.data.length === 0 ? (
        <EmptyState
          icon={Boxes}
          title={`No trained models in ${where} yet`}
          action={<CreateModelDialog />}
          footer={workspace && <Snippet label="Create a model from code" code={createModelSnippet(origin, workspace.team, workspace.project)} />}
        >
          Create a model on a trainable base model, then log trajectory groups or train it. Each finished job adds a checkpoint you can chat with at once.
        </EmptyState>
      ) : (
        <>
          <Table label="Trained models">
            <THead>
              <Th>Model</Th>
              <Th>Base model</Th>
              <Th className="text-right">Step</Th>
              <Th>Created</Th>
              <ThActions />
            </THead>
            <tbody>
              {models.data.map((model) => (
                <ModelRow key={model.id} model={model} />
              ))}
            </tbody>
          </Table>
          <LoadMoreFooter pages={models} />
        </>
      )}
    </Panel>
  );
}

function ModelRow({ model }: { model: TrainedModel }) {
  return (
    <Tr>
      <Td>
        <Link href={`/models/${model.id}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
          {model.name}
        </Link>
        <span className="ml-2 font-mono text-xs text-zinc-400">
          {model.entity}/{model.project}
        </span>
      </Td>
      <Td className="font-mono text-[13px] text-zinc-600">{model.base_model}</Td>
      <Td className="text-right tabular-nums">
        {model.current_step}
        {model.latest_checkpoint_step !== null && model.latest_checkpoint_step !== model.current_step && (
          <span className="ml-1 text-xs text-zinc-400">(latest kept: {model.latest_checkpoint_step})</span>
        )}
      </Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={model.created_at} />
      </Td>
      <Td className="text-right">
        <OpenInPlayground model={inferenceName(model)} label="Chat" compact />
      </Td>
    </Tr>
  );
}
