"use client";

import { ListPlus } from "lucide-react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { callLogQuery, type CallLogFilter } from "@/components/calls/queries";
import { useWorkspace } from "@/components/identity/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogDone, DialogTrigger } from "@/components/ui/dialog";
import { SelectField } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api-fetch";
import { useAddToQueue, useTeamQueues, type AddedItems, type AddItemsInput } from "./queries";

// "Add to queue" on the Calls page: the selected calls, or every call the current filter
// matches, go into a queue picked here. The queue API skips calls already in it and counts them.

/** The call log's filter as the queue API takes it: the list's query parameters, without paging or the project (the queue's). */
export function queueFilterOf(filter: CallLogFilter): Record<string, string> {
  const query = callLogQuery(filter);
  query.delete("limit");
  query.delete("project");
  return Object.fromEntries(query);
}

export function AddToQueueDialog({ filter, selected, onAdded }: { filter: CallLogFilter; selected: string[]; onAdded: () => void }) {
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<"selected" | "filter">("selected");
  const [queueId, setQueueId] = useState("");
  const [result, setResult] = useState<{ queueId: string; added: AddedItems } | null>(null);
  const { data: workspace } = useWorkspace();
  const queues = useTeamQueues(workspace?.team);
  const add = useAddToQueue();
  // A filter naming a project can only fill that project's queues.
  const choices = (queues.data ?? []).filter((q) => !filter.project || q.project === filter.project);
  const chosen = queueId || choices[0]?.id || "";

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body: AddItemsInput = scope === "selected" ? { call_ids: selected } : { filter: queueFilterOf(filter) };
    add.mutate(
      { queueId: chosen, body },
      {
        onSuccess: (added) => {
          setResult({ queueId: chosen, added });
          onAdded();
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setScope(selected.length > 0 ? "selected" : "filter");
          setResult(null);
          add.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          <ListPlus aria-hidden /> Add to queue{selected.length > 0 ? ` (${selected.length})` : ""}
        </Button>
      </DialogTrigger>
      <DialogContent title="Add calls to a queue" description="Calls already in the queue are skipped.">
        {result ? (
          <>
            <p role="status" className="text-sm text-zinc-800">
              {result.added.added} added, {result.added.duplicates} already in the queue.
            </p>
            <p className="mt-2 text-sm">
              <Link href={`/queues/${result.queueId}`} className="text-brand-700 hover:underline">
                Open the queue
              </Link>
            </p>
            <DialogDone />
          </>
        ) : queues.isPending ? (
          <Skeleton className="h-24" />
        ) : queues.isError ? (
          <Alert title="Could not load the queues">{errorMessage(queues.error)}</Alert>
        ) : choices.length === 0 ? (
          <>
            <p className="text-sm text-zinc-600">
              No queue {filter.project ? `in ${filter.project}` : "in this team"} yet: <Link href="/queues" className="text-brand-700 hover:underline">create one</Link> first.
            </p>
            <DialogDone />
          </>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4">
            <SelectField label="Queue" value={chosen} onChange={(e) => setQueueId(e.target.value)}>
              {choices.map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name} ({q.project})
                </option>
              ))}
            </SelectField>
            <fieldset className="space-y-1.5 text-sm text-zinc-800">
              <legend className="mb-1.5 font-medium">Calls</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="scope" className="accent-brand-600" checked={scope === "selected"} disabled={selected.length === 0} onChange={() => setScope("selected")} />
                The {selected.length} selected call{selected.length === 1 ? "" : "s"}
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="scope" className="accent-brand-600" checked={scope === "filter"} onChange={() => setScope("filter")} />
                Every call matching the current filters{filter.project ? "" : " (in the queue's project)"}
              </label>
            </fieldset>
            {add.isError && <Alert title="Could not add the calls">{errorMessage(add.error)}</Alert>}
            <DialogActions label="Add" pendingLabel="Adding…" pending={add.isPending} />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
