"use client";

import type { JobEvent } from "@/components/jobs/queries";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";

const number = new Intl.NumberFormat("en", { maximumSignificantDigits: 5 });
const show = (v: unknown) => (typeof v === "number" ? number.format(v) : typeof v === "string" ? v : JSON.stringify(v));

const TYPE_CLASS: Record<string, string> = {
  training_started: "text-sky-700",
  gradient_step: "text-zinc-600",
  training_ended: "text-emerald-700",
  training_failed: "text-red-700",
};

/** The job's events in order, newest at the bottom. */
export function JobEventsTable({ events }: { events: JobEvent[] }) {
  return (
    <div className="max-h-96 overflow-y-auto">
      <Table label="Events">
        <THead>
          <Th className="w-28">Time</Th>
          <Th className="w-40">Event</Th>
          <Th>Data</Th>
        </THead>
        <tbody>
          {events.map((event) => (
            <Tr key={event.id} data-testid="job-event" data-type={event.type}>
              <Td className="font-mono text-xs whitespace-nowrap text-zinc-500">{new Date(event.created_at).toLocaleTimeString()}</Td>
              <Td className={`font-mono text-xs ${TYPE_CLASS[event.type] ?? ""}`}>{event.type}</Td>
              <Td className="font-mono text-[11px] text-zinc-600">
                {Object.entries(event.data).map(([key, value]) => (
                  <span key={key} className="mr-3 inline-block">
                    <span className="text-zinc-400">{key}</span> {show(value)}
                  </span>
                ))}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
