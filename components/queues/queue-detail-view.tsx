"use client";

import { Settings2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DetailHeader, DetailLoadError, DetailSkeleton, Fact } from "@/components/ui/detail-page";
import { Panel } from "@/components/ui/panel";
import { DeleteQueueDialog } from "./delete-queue-dialog";
import { ExportButtons } from "./export-buttons";
import { useQueue } from "./queries";
import { QueueFormDialog } from "./queue-form-dialog";
import { QueueItemsTable } from "./queue-items-table";
import { QueueProgress } from "./queue-progress";
import { QueueStatsPanels } from "./queue-stats-panels";

// /queues/<id>: one queue for the people running it — its settings, progress, each annotator's
// share, agreement, the items by status, and its annotations as files.

export function QueueDetailView({ queueId, team, defaultProject }: { queueId: string; team: string; defaultProject: string }) {
  const queue = useQueue(queueId);
  if (queue.isPending) return <DetailSkeleton label="Loading the queue" />;
  if (queue.isError) {
    return (
      <DetailLoadError
        error={queue.error}
        retry={() => void queue.refetch()}
        what="the queue"
        notFound={{ title: "Queue not found", reason: "It does not exist, was deleted, or belongs to another team.", href: "/queues", link: "All queues" }}
      />
    );
  }
  const q = queue.data;
  return (
    <div className="space-y-4">
      <DetailHeader
        back={{ href: "/queues", label: "Queues" }}
        title={q.name}
        subtitle={<p className="mt-1 text-sm text-zinc-500">{q.description || q.project}</p>}
        actions={
          <>
            <ExportButtons queue={q} />
            <QueueFormDialog
              team={team}
              defaultProject={defaultProject}
              queue={q}
              trigger={
                <Button variant="secondary" size="sm">
                  <Settings2 aria-hidden /> Configure
                </Button>
              }
            />
            <DeleteQueueDialog queue={q} />
          </>
        }
      />
      <Panel title="Progress">
        <div className="space-y-4 p-4">
          <QueueProgress counts={q.counts} label={`Progress of ${q.name}`} />
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Fact label="Project">{q.project}</Fact>
            <Fact label="Annotations per item">{q.annotations_per_item}</Fact>
            <Fact label="Specs">{q.specs.map((s) => `${s.name}${s.required ? "" : " (optional)"}`).join(", ")}</Fact>
            <Fact label="Assigned">{q.annotators.map((a) => a.username).join(", ") || "nobody"}</Fact>
          </dl>
        </div>
      </Panel>
      <QueueStatsPanels queueId={q.id} />
      {q.instructions && (
        <Panel title="Instructions" description="What annotators read beside the form.">
          <p className="p-4 text-sm whitespace-pre-wrap text-zinc-700">{q.instructions}</p>
        </Panel>
      )}
      <QueueItemsTable queue={q} />
    </div>
  );
}
