"use client";

import { JsonBlock } from "@/components/calls/message-content";

// The request's parameters as recorded (after validation and defaults), everything but the
// messages: scalars inline, objects and lists as pretty JSON.

export function CallParameters({ request }: { request: Record<string, unknown> }) {
  const entries = Object.entries(request).filter(([name, value]) => name !== "messages" && value !== null && value !== undefined);
  if (entries.length === 0) return <p className="px-4 py-6 text-sm text-zinc-500">No parameters were recorded.</p>;
  return (
    <dl className="divide-y divide-zinc-100">
      {entries.map(([name, value]) => (
        <div key={name} className="grid grid-cols-[minmax(8rem,14rem)_1fr] gap-3 px-4 py-2">
          <dt className="font-mono text-xs text-zinc-500">{name}</dt>
          <dd className="min-w-0 font-mono text-xs break-words text-zinc-900">{typeof value === "object" ? <JsonBlock value={value} /> : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
