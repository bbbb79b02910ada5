"use client";

// Two or three ways to fill one launch form (picked rows, or chosen by judgement): a radio group of
// buttons above the form of the chosen way.

import { useState, type ReactNode } from "react";
import { Segmented } from "@/components/ui/segmented";

interface Mode {
  id: string;
  label: string;
  /** Mounted only while its mode is chosen. */
  form: ReactNode;
}

export function ModeForms({ label, modes }: { label: string; modes: Mode[] }) {
  const [current, setCurrent] = useState(modes[0].id);
  return (
    <div className="space-y-4">
      <Segmented variant="subtle" aria-label={label} options={modes.map((mode) => ({ value: mode.id, label: mode.label }))} value={current} onChange={setCurrent} />
      {modes.find((mode) => mode.id === current)?.form}
    </div>
  );
}
