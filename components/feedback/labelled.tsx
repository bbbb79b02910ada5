"use client";

import { useId, type ReactNode } from "react";

/** A compact caption over a filter-bar control, bound by id: the control's accessible name is
 *  the caption alone (a wrapping label would add a select's shown value to it). */
export function Labelled({ label, children, className = "" }: { label: string; children: (id: string) => ReactNode; className?: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-500">
        {label}
      </label>
      {children(id)}
    </div>
  );
}
