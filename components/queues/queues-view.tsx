"use client";

import { Inbox, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useTeamQueues } from "./queries";
import { QueueFormDialog } from "./queue-form-dialog";
import { QueueProgress } from "./queue-progress";

// /queues: the team's annotation queues with their progress, and a new one.

export function QueuesView({ team, project }: { team: string; project: string }) {
  const queues = useTeamQueues(team);
  const router = useRouter();
  const newQueue = (
    <QueueFormDialog
      team={team}
      defaultProject={project}
      onSaved={(queue) => router.push(`/queues/${queue.id}`)}
      trigger={
        <Button>
          <Plus /> New queue
        </Button>
      }
    />
  );

  return (
    <>
      <PageHeader
        title="Annotation queues"
        description="Recorded calls for people to judge against annotation specs. Fill a queue from the Calls page; annotators work through it in Annotate."
        actions={newQueue}
      />
      <Panel title={`Queues of ${team}`}>
        {queues.isPending ? (
          <TableSkeleton label="Loading queues" />
        ) : queues.isError ? (
          <QueryError what="the queues" error={queues.error} retry={() => void queues.refetch()} />
        ) : queues.data.length === 0 ? (
          <EmptyState icon={Inbox} title="No queues yet">
            Create a queue with the specs to collect, then add calls to it from the <Link href="/calls" className="text-brand-700 hover:underline">Calls</Link> page.
          </EmptyState>
        ) : (
          <Table label="Annotation queues">
            <THead>
              <Th>Queue</Th>
              <Th>Project</Th>
              <Th>Specs</Th>
              <Th>Annotators</Th>
              <Th>Progress</Th>
              <Th>Created</Th>
            </THead>
            <tbody>
              {queues.data.map((queue) => (
                <Tr key={queue.id} data-testid="queue-row">
                  <Td>
                    <Link href={`/queues/${queue.id}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                      {queue.name}
                    </Link>
                    {queue.description && <p className="max-w-xs truncate text-xs text-zinc-500">{queue.description}</p>}
                  </Td>
                  <Td className="text-xs whitespace-nowrap text-zinc-600">{queue.project}</Td>
                  <Td className="text-xs text-zinc-600">{queue.specs.map((spec) => spec.name).join(", ")}</Td>
                  <Td className="text-xs text-zinc-600">{queue.annotators.length ? queue.annotators.map((a) => a.username).join(", ") : <span className="text-zinc-400">nobody</span>}</Td>
                  <Td>
                    <QueueProgress counts={queue.counts} label={`Progress of ${queue.name}`} />
                  </Td>
                  <Td className="text-xs whitespace-nowrap text-zinc-500">
                    <RelativeTime iso={queue.created_at} />
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </Panel>
    </>
  );
}
