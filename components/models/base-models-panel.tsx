"use client";

import { useModels } from "@/components/inference/queries";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { OpenInPlayground } from "@/components/models/playground-link";

/** The base models this instance serves (GET /v1/models), marked trainable or serve-only. */
export function BaseModelsPanel() {
  const models = useModels();
  const base = models.data?.filter((m) => m.parent === null) ?? [];
  return (
    <Panel title="Base models" description="Configured by the operator. New models start from a trainable one.">
      {models.isPending ? (
        <TableSkeleton label="Loading base models" rows={2} />
      ) : models.isError ? (
        <QueryError what="base models" error={models.error} retry={() => void models.refetch()} />
      ) : (
        <Table label="Base models">
          <THead>
            <Th>Name</Th>
            <Th>Training</Th>
            <Th>Description</Th>
            <ThActions />
          </THead>
          <tbody>
            {base.map((m) => (
              <Tr key={m.id}>
                <Td className="font-mono text-[13px] font-medium text-zinc-900">
                  {m.id} {m.default && <Badge tone="brand">default</Badge>}
                </Td>
                <Td>{m.trainable ? <Badge tone="green">trainable</Badge> : <Badge>serve-only</Badge>}</Td>
                <Td className="max-w-md text-zinc-500">{m.description ?? "—"}</Td>
                <Td className="text-right">
                  <OpenInPlayground model={m.id} label="Chat" compact />
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
    </Panel>
  );
}
