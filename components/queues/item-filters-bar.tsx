"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ITEM_STATUSES, REVIEW_STATES } from "@/lib/queues/item-schemas";
import { ITEM_STATUS_LABEL, REVIEW_STATE_LABEL } from "./item-labels";
import type { ItemFilters, QueueDto } from "./queries";

// The items table's filters, applied on the server: status, review, annotator and a spec's value
// (selects apply at once), and a text search over prompts, answers, annotations and notes (applied
// with Enter or Apply, not on each key).

const SELECT = "rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-[13px]";
const INPUT = "w-36 rounded-md border border-zinc-300 bg-white px-2 py-1 text-[13px]";

export const NO_FILTERS: ItemFilters = { status: "", review_state: "", annotator: "", spec: "", value: "", search: "" };

export function ItemFiltersBar({ queue, annotators, filters, onChange }: { queue: QueueDto; annotators: string[]; filters: ItemFilters; onChange: (next: ItemFilters) => void }) {
  const [text, setText] = useState({ value: filters.value, search: filters.search });
  const set = (patch: Partial<ItemFilters>) => onChange({ ...filters, ...patch });
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      role="search"
      aria-label="Filter items"
      onSubmit={(e) => {
        e.preventDefault();
        set({ value: text.value.trim(), search: text.search.trim() });
      }}
    >
      <select aria-label="Filter items by status" className={SELECT} value={filters.status} onChange={(e) => set({ status: e.target.value as ItemFilters["status"] })}>
        <option value="">All statuses</option>
        {ITEM_STATUSES.map((s) => (
          <option key={s} value={s}>
            {ITEM_STATUS_LABEL[s]}
          </option>
        ))}
      </select>
      <select aria-label="Filter items by review" className={SELECT} value={filters.review_state} onChange={(e) => set({ review_state: e.target.value as ItemFilters["review_state"] })}>
        <option value="">Any review</option>
        {REVIEW_STATES.map((s) => (
          <option key={s} value={s}>
            {REVIEW_STATE_LABEL[s]}
          </option>
        ))}
      </select>
      <select aria-label="Filter items by annotator" className={SELECT} value={filters.annotator} onChange={(e) => set({ annotator: e.target.value })}>
        <option value="">Anyone</option>
        {annotators.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <select aria-label="Filter items by spec" className={SELECT} value={filters.spec} onChange={(e) => set({ spec: e.target.value })}>
        <option value="">Any spec</option>
        {queue.specs.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
          </option>
        ))}
      </select>
      <input aria-label="Spec value" placeholder="value" className={INPUT} value={text.value} disabled={!filters.spec} onChange={(e) => setText({ ...text, value: e.target.value })} />
      <input aria-label="Search items" type="search" placeholder="Search text" className={INPUT} value={text.search} onChange={(e) => setText({ ...text, search: e.target.value })} />
      <Button type="submit" variant="secondary" size="sm">
        Apply
      </Button>
    </form>
  );
}
