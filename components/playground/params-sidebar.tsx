"use client";

import { ArrowRightLeft } from "lucide-react";
import { BOTH_COLUMNS, ColumnBadge, COLUMNS, type ColumnIndex } from "@/components/playground/columns";
import { ParamsPanel, type ModelsQuery } from "@/components/playground/params-panel";
import type { RunSettings, SettingsErrors } from "@/components/playground/run-settings";

// The Parameters sidebar: one column's model and parameters; while comparing, tabs choose the
// column (a red ring marks one with invalid fields) and a button copies them to the other.

export function ParamsSidebar({ compare, editing, onEdit, hasErrors, onCopyToOther, settings, onChange, errors, models }: {
  compare: boolean;
  editing: ColumnIndex;
  onEdit: (i: ColumnIndex) => void;
  hasErrors: (i: ColumnIndex) => boolean;
  onCopyToOther: () => void;
  /** The edited column's settings and their field messages. */
  settings: RunSettings;
  onChange: (next: RunSettings) => void;
  errors: SettingsErrors;
  models: ModelsQuery;
}) {
  const copy = `Copy ${COLUMNS[editing].label}'s parameters to ${COLUMNS[1 - editing].label}`;
  return (
    <aside aria-label="Parameters" className="flex w-72 shrink-0 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-100 px-3.5 py-2.5">
        <h2 className="text-sm font-semibold text-zinc-900">Parameters</h2>
        {compare && (
          <div className="flex items-center gap-1">
            <div role="tablist" aria-label="Column" className="inline-flex rounded-md bg-zinc-100 p-0.5">
              {BOTH_COLUMNS.map((i) => (
                <button
                  key={i}
                  type="button"
                  role="tab"
                  aria-selected={editing === i}
                  data-on={editing === i}
                  onClick={() => onEdit(i)}
                  className={`rounded px-2.5 py-0.5 text-[12px] font-semibold text-zinc-600 data-[on=true]:text-white ${COLUMNS[i].tab} ${hasErrors(i) ? "ring-1 ring-red-400" : ""}`}
                >
                  {COLUMNS[i].label}
                </button>
              ))}
            </div>
            <button type="button" title={copy} aria-label={copy} onClick={onCopyToOther} className="rounded p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700">
              <ArrowRightLeft className="size-3.5" />
            </button>
          </div>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-3.5 py-3">
        {compare && (
          <p className="mb-3 flex items-center gap-2 text-[12px] text-zinc-500">
            <ColumnBadge index={editing} /> Column {COLUMNS[editing].label}: its own model and parameters.
          </p>
        )}
        {/* Keyed by column: the panel's local state (a stop sequence being typed) is the column's. */}
        <ParamsPanel key={editing} settings={settings} onChange={onChange} errors={errors} models={models} />
      </div>
    </aside>
  );
}
