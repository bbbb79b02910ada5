"use client";

import { Trash2 } from "lucide-react";
import { AddBaseModelDialog } from "@/components/base-models/add-base-model-dialog";
import { useBaseModels, useRemoveBaseModel, type BaseModelInfo } from "@/components/base-models/queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { formatBytes, formatCount } from "@/lib/client/sizes";

// Settings → Base models (instance admins): every base this instance serves — shipped, listed in
// the models file, or added here from a GGUF in the models directory — with what it is and what it
// trains; "Add a base" registers another, Remove unregisters one no model uses.

const SOURCE_LABEL: Record<BaseModelInfo["source"], string> = { shipped: "shipped", file: "models file", database: "added here" };

const orDash = (value: string | number | null | undefined, format: (v: never) => string = String) => (value == null ? "—" : format(value as never));

export function BaseModelsSettings() {
  const bases = useBaseModels();
  return (
    <Panel
      title="Base models"
      description="What new models start from. Bases added here live in the database: every server and worker sees them at once. A models-file entry of the same name wins."
      actions={<AddBaseModelDialog />}
    >
      {bases.isPending ? (
        <TableSkeleton label="Loading base models" rows={3} />
      ) : bases.isError ? (
        <QueryError what="base models" error={bases.error} retry={() => void bases.refetch()} />
      ) : (
        <Table label="Base models">
          <THead>
            <Th>Name</Th>
            <Th>Hugging Face names</Th>
            <Th>Source</Th>
            <Th>Architecture</Th>
            <Th className="text-right">Parameters</Th>
            <Th className="text-right">Context</Th>
            <Th>Weights</Th>
            <Th className="text-right">Size</Th>
            <Th>Trains</Th>
            <Th className="text-right">Models</Th>
            <Th>Shadowed</Th>
            <ThActions />
          </THead>
          <tbody>
            {bases.data.map((base) => (
              <Tr key={`${base.source}:${base.name}`} data-testid="base-model-row">
                <Td className="font-mono text-[13px] font-medium text-zinc-900" title={base.description ?? undefined}>
                  {base.name}
                </Td>
                <Td className="font-mono text-xs">{base.hf_names.length ? base.hf_names.join(", ") : "—"}</Td>
                <Td>{SOURCE_LABEL[base.source]}</Td>
                <Td>{base.kind === "upstream" ? "upstream server" : orDash(base.architecture)}</Td>
                <Td className="text-right tabular-nums">{orDash(base.parameters, formatCount)}</Td>
                <Td className="text-right tabular-nums">{orDash(base.context_length, (n: number) => n.toLocaleString("en"))}</Td>
                <Td className="font-mono text-xs">{orDash(base.weight_type)}</Td>
                <Td className="text-right tabular-nums">{orDash(base.size_bytes, formatBytes)}</Td>
                <Td>{base.train_modes.length ? base.train_modes.map((mode) => <Badge key={mode} tone="green">{mode}</Badge>) : <Badge>serve-only</Badge>}</Td>
                <Td className="text-right tabular-nums">{base.models_count}</Td>
                <Td>{base.shadowed ? <Badge tone="violet">by the models file</Badge> : "—"}</Td>
                <Td className="text-right">{base.source === "database" && base.id && <RemoveBaseModel base={base as BaseModelInfo & { id: string }} />}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
    </Panel>
  );
}

function RemoveBaseModel({ base }: { base: BaseModelInfo & { id: string } }) {
  const remove = useRemoveBaseModel();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Remove ${base.name}`}>
          <Trash2 /> Remove
        </Button>
      }
      title={`Remove ${base.name}?`}
      description="New models can no longer start from it. Its GGUF file stays in the models directory. A base that models use cannot be removed."
      action={remove}
      label="Remove base"
      pendingLabel="Removing…"
      onConfirm={(close) => remove.mutate(base.id, { onSuccess: close })}
    />
  );
}
