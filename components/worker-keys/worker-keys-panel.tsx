"use client";

import { Server } from "lucide-react";
import { useState } from "react";
import { KeyName, KeyPrefix, KeyRevocation } from "@/components/keys/key-cells";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { CheckboxLabel } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { CreateWorkerKeyDialog } from "@/components/worker-keys/create-worker-key-dialog";
import { useWorkerKeys, type WorkerKey } from "@/components/worker-keys/queries";
import { RevokeWorkerKeyDialog } from "@/components/worker-keys/revoke-worker-key-dialog";

// Settings → Worker keys (instance admins): the keys remote training workers lease jobs with
// (docs/workers.md), each with its workers online now; create one (its secret and the commands
// that start a worker, shown once) or revoke one.

/** Its workers seen in the last 5 minutes, by instance (their names on hover). */
function WorkersOnline({ workers }: { workers: WorkerKey["workers"] }) {
  if (workers.length === 0) return <span className="text-zinc-400">None</span>;
  return (
    <span title={workers.map((worker) => worker.instance).join("\n")}>
      <Badge tone="green">{workers.length} online</Badge>
    </span>
  );
}

function WorkerKeyRow({ workerKey }: { workerKey: WorkerKey }) {
  const revoked = workerKey.revoked_at !== null;
  return (
    <Tr className={revoked ? "text-zinc-400" : ""}>
      <Td className="font-medium text-zinc-900">
        <KeyName name={workerKey.name} revoked={revoked} />
      </Td>
      <Td>
        <KeyPrefix prefix={workerKey.prefix} />
      </Td>
      <Td>{workerKey.team ? <Badge tone="blue">{workerKey.team}</Badge> : <span className="text-zinc-500">All teams</span>}</Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={workerKey.created_at} />
      </Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={workerKey.last_seen_at} />
      </Td>
      <Td>{revoked ? "—" : <WorkersOnline workers={workerKey.workers} />}</Td>
      <Td className="text-right">
        <KeyRevocation revokedAt={workerKey.revoked_at} revoke={<RevokeWorkerKeyDialog workerKey={workerKey} />} />
      </Td>
    </Tr>
  );
}

export function WorkerKeysPanel({ origin }: { origin: string }) {
  const [includeRevoked, setIncludeRevoked] = useState(false);
  const keys = useWorkerKeys();
  const shown = keys.data?.filter((key) => includeRevoked || key.revoked_at === null) ?? [];

  return (
    <div className="space-y-5">
      <div className="flex items-start justify-between gap-6">
        <p className="max-w-2xl text-sm text-zinc-500">
          Remote training workers lease jobs from {origin} over HTTP with a worker key: Anneal&apos;s own CPU trainer
          (<code className="font-mono text-xs text-zinc-700">npm run worker</code>) or the Python worker on a GPU machine (
          <code className="font-mono text-xs text-zinc-700">anneal-worker serve</code>). A worker key can call nothing but the workers&apos; routes.
        </p>
        <CreateWorkerKeyDialog origin={origin} />
      </div>
      <Panel title="Worker keys" actions={<CheckboxLabel label="Show revoked" checked={includeRevoked} onChange={setIncludeRevoked} />}>
        {keys.isPending ? (
          <TableSkeleton label="Loading worker keys" />
        ) : keys.isError ? (
          <QueryError what="worker keys" error={keys.error} retry={() => void keys.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState icon={Server} title="No worker keys yet" action={<CreateWorkerKeyDialog origin={origin} />}>
            Create a key for each pool of training workers: a key for one team takes only that team&apos;s jobs.
          </EmptyState>
        ) : (
          <Table label="Worker keys">
            <THead>
              <Th>Name</Th>
              <Th>Key</Th>
              <Th>Scope</Th>
              <Th>Created</Th>
              <Th title="When one of its workers last called (a worker unseen for a day is forgotten)">Last seen</Th>
              <Th>Workers</Th>
              <ThActions />
            </THead>
            <tbody>
              {shown.map((key) => (
                <WorkerKeyRow key={key.id} workerKey={key} />
              ))}
            </tbody>
          </Table>
        )}
      </Panel>
    </div>
  );
}
