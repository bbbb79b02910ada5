"use client";

import { useState } from "react";
import { useAnnotationSpecs } from "@/components/calls/queries";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { NewSpecForm, SPEC_TYPE_LABELS } from "./new-spec-form";

// The annotation specs a queue asks for, in form order: the project's specs to tick, each required
// or optional, and a spec made on the spot (ticked, required, when created).

export interface ChosenSpec {
  name: string;
  required: boolean;
}

export function SpecPicker({ project, value, onChange }: { project: string; value: ChosenSpec[]; onChange: (specs: ChosenSpec[]) => void }) {
  const specs = useAnnotationSpecs(project || undefined);
  const [adding, setAdding] = useState(false);
  const chosen = new Map(value.map((spec) => [spec.name, spec]));

  const toggle = (name: string, on: boolean) => onChange(on ? [...value, { name, required: true }] : value.filter((spec) => spec.name !== name));
  const setRequired = (name: string, required: boolean) => onChange(value.map((spec) => (spec.name === name ? { ...spec, required } : spec)));

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
      <div className="mt-2">
        {adding ? (
          <NewSpecForm
            project={project}
            onCreated={(name) => {
              if (!chosen.has(name)) onChange([...value, { name, required: true }]);
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
