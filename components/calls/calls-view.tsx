"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { CallFilters } from "@/components/calls/call-filters";
import { CallsTable } from "@/components/calls/calls-table";
import type { CallLogFilter } from "@/components/calls/queries";
import { AddToQueueDialog } from "@/components/queues/add-to-queue-dialog";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";

// /calls: the call log. The filters live in the URL, so a filtered list can be shared, and going
// back from a call returns to the same list. Picked calls (or the filter's) go to an annotation queue.

const FILTER_KEYS = ["project", "model", "status", "range", "start", "end", "has_feedback", "feedback_type", "feedback_value"] as const;

/** The filters in a URL's query. */
function filterOf(params: URLSearchParams): CallLogFilter {
  return Object.fromEntries(FILTER_KEYS.flatMap((key) => (params.get(key) ? [[key, params.get(key)]] : []))) as CallLogFilter;
}

export function CallsView({ origin }: { origin: string }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // The filters are this state, mirrored into the URL: changes made in quick succession each
  // build on the last (the URL is updated asynchronously).
  const [filter, setFilter] = useState(() => filterOf(new URLSearchParams(params)));
  const filtered = Object.keys(filter).length > 0;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const select = (ids: string[], picked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (picked) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  function change(patch: Partial<CallLogFilter>) {
    const next = Object.fromEntries(Object.entries({ ...filter, ...patch }).filter(([, value]) => value)) as CallLogFilter;
    setFilter(next);
    setSelected(new Set()); // a selection is of the calls shown: none hidden by the new filters
    const query = new URLSearchParams(next as Record<string, string>).toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }

  return (
    <>
      <PageHeader title="Calls" description="Every chat completion, as recorded: read the conversation, the answer and its logprobs, and judge it." />
      <Panel
        title="Call log"
        description="Newest first."
        actions={
          <>
            {filtered && (
              <Button variant="ghost" size="sm" onClick={() => change(Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined])))}>
                Clear filters
              </Button>
            )}
            <AddToQueueDialog filter={filter} selected={[...selected]} onAdded={() => setSelected(new Set())} />
          </>
        }
      >
        <div className="border-b border-zinc-100 px-4 py-3">
          <CallFilters filter={filter} onChange={change} />
        </div>
        <CallsTable
          filter={filter}
          selection={{ selected, onChange: select }}
          empty={
            filtered ? (
              <p>No calls match these filters.</p>
            ) : (
              <>
                <h3 className="text-sm font-semibold text-zinc-900">No calls recorded yet</h3>
                <p className="mt-1">
                  Every chat completion is recorded here: chat in the <Link href="/playground" className="text-brand-700 hover:underline">Playground</Link>, or call the API:
                </p>
                <pre className="mt-3 overflow-x-auto rounded-md bg-zinc-950 px-3 py-2 text-left font-mono text-[11px] leading-5 text-zinc-100">{`curl ${origin}/v1/chat/completions \\
  -H "Authorization: Bearer $ANNEAL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"messages": [{"role": "user", "content": "Hello"}]}'`}</pre>
              </>
            )
          }
        />
      </Panel>
    </>
  );
}
