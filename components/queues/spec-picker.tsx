"use client";

import { useState } from "react";
import { useAnnotationSpecs } from "@/components/calls/queries";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { NewSpecForm, SPEC_TYPE_LABELS } from "./new-spec-form";

// The annotation specs a queue asks for, in form order: the project's specs to tick, each required
// or optional, and a spec made on the spot (ticked, required, when created). The form asks the
// required ones first (in the order ticked) until the order is changed by hand (↑ ↓).

export interface ChosenSpec {
  name: string;
  required: boolean;
}

/** Required specs first, each group in the order given. */
export const requiredFirst = (specs: ChosenSpec[]) => [...specs.filter((s) => s.required), ...specs.filter((s) => !s.required)];

export function SpecPicker({ project, value, onChange }: { project: string; value: ChosenSpec[]; onChange: (specs: ChosenSpec[]) => void }) {
  const specs = useAnnotationSpecs(project || undefined);
  const [adding, setAdding] = useState(false);
  // A queue saved in another order (edited here) keeps it.
  const [reordered, setReordered] = useState(() => requiredFirst(value).some((spec, i) => spec !== value[i]));
  const chosen = new Map(value.map((spec) => [spec.name, spec]));

  const change = (next: ChosenSpec[]) => onChange(reordered ? next : requiredFirst(next));
  const toggle = (name: string, on: boolean) => change(on ? [...value, { name, required: true }] : value.filter((spec) => spec.name !== name));
  const setRequired = (name: string, required: boolean) => change(value.map((spec) => (spec.name === name ? { ...spec, required } : spec)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...value];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    setReordered(true);
    onChange(next);
  };

  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">Annotation specs</legend>
      {specs.isPending && project ? (
        <Skeleton className="h-16" />
      ) : (specs.data ?? []).length === 0 ? (
        <p className="text-xs text-zinc-500">This project has no annotation specs yet: create one below.</p>
      ) : (
        <ul className="max-h-52 divide-y divide-zinc-100 overflow-y-auto rounded-md border border-zinc-200">
          {specs.data!.map((spec) => {
            const picked = chosen.get(spec.name);
            return (
              <li key={spec.name} className="flex items-center justify-between gap-3 px-3 py-2">
                <label className="flex min-w-0 cursor-pointer items-center gap-2 text-sm text-zinc-800">
                  <input type="checkbox" className="size-4 accent-brand-600" checked={Boolean(picked)} onChange={(e) => toggle(spec.name, e.target.checked)} />
                  <span className="truncate font-medium">{spec.name}</span>
                  <span className="text-xs whitespace-nowrap text-zinc-500">{SPEC_TYPE_LABELS[spec.type]}</span>
                </label>
                {picked && (
                  <select
                    aria-label={`${spec.name}: required or optional`}
                    className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-xs"
                    value={picked.required ? "required" : "optional"}
                    onChange={(e) => setRequired(spec.name, e.target.value === "required")}
                  >
                    <option value="required">Required</option>
                    <option value="optional">Optional</option>
                  </select>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {value.length > 1 && (
        <div className="mt-2">
          <p className="mb-1 text-xs font-medium text-zinc-600">Order in the form{reordered ? "" : " (required first)"}</p>
          <ol className="divide-y divide-zinc-100 rounded-md border border-zinc-200" aria-label="Order in the form">
            {value.map((spec, i) => (
              <li key={spec.name} className="flex items-center gap-2 px-3 py-1 text-sm">
                <span className="w-4 text-xs text-zinc-400 tabular-nums">{i + 1}</span>
                <span className="flex-1 truncate font-medium text-zinc-800">{spec.name}</span>
                <span className="text-xs text-zinc-500">{spec.required ? "required" : "optional"}</span>
                <Button variant="ghost" size="sm" aria-label={`Move ${spec.name} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  ↑
                </Button>
                <Button variant="ghost" size="sm" aria-label={`Move ${spec.name} down`} disabled={i === value.length - 1} onClick={() => move(i, 1)}>
                  ↓
                </Button>
              </li>
            ))}
          </ol>
        </div>
      )}
      <div className="mt-2">
        {adding ? (
          <NewSpecForm
            project={project}
            onCreated={(name) => {
              if (!chosen.has(name)) change([...value, { name, required: true }]);
              setAdding(false);
            }}
          />
        ) : (
          <Button variant="ghost" size="sm" onClick={() => setAdding(true)} disabled={!project}>
            + New spec
          </Button>
        )}
      </div>
    </fieldset>
  );
}
