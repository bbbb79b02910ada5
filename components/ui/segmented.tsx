import type { ReactNode } from "react";

// One choice of a few, shown all at once: a radio group of buttons (role="radiogroup" of
// role="radio" with aria-checked). Each option is its own Tab stop and Enter, Space or a click
// picks it; arrow keys do not move the pick (none of the groups this replaced did). Keys that pick
// from afar (the annotation digits) belong to the page. onChange gets the clicked option's value,
// the checked one's too, so a caller may take a pick back.

const VARIANTS = {
  /** A framed strip whose checked segment is dark: a view or range switch. */
  solid: {
    group: "rounded-md border border-zinc-300 bg-white shadow-xs",
    checked: "bg-zinc-900 text-white",
    unchecked: "text-zinc-600 hover:bg-zinc-100",
  },
  /** A grey strip whose checked segment is raised: which form, or which way to fill one. */
  subtle: {
    group: "rounded-md border border-zinc-200 bg-zinc-50",
    checked: "bg-white text-zinc-900 shadow-xs",
    unchecked: "text-zinc-500 hover:text-zinc-800",
  },
  /** Separate bordered buttons that wrap, the checked one in brand: an answer to a question. */
  choices: {
    group: "flex-wrap gap-1.5",
    checked: "border-brand-400 bg-brand-50 text-brand-800",
    unchecked: "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50",
  },
} as const;

// The strip's padding and the segments' size; choices keep their own (room for a key hint).
const SIZES = {
  sm: { group: "p-0.5", item: "rounded px-2.5 py-1 text-[13px]" },
  md: { group: "gap-1 p-1", item: "rounded-md px-3 py-1.5 text-sm" },
} as const;
const CHOICE_ITEM = "inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-[13px] shadow-xs focus-visible:outline-offset-2";

export interface SegmentedOption<T> {
  value: T;
  /** The visible text, which is also the radio's accessible name (with any key hint in it). */
  label: ReactNode;
  disabled?: boolean;
}

/** The group's accessible name: its own label or the id of a visible one (aria-labelledby wins when both are given). */
type GroupName = { "aria-label": string; "aria-labelledby"?: string } | { "aria-label"?: string; "aria-labelledby": string };

export type SegmentedProps<T extends string | number | boolean> = GroupName & {
  options: readonly SegmentedOption<T>[];
  /** The checked option's value; null or undefined checks none. */
  value: T | null | undefined;
  onChange: (value: T) => void;
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  /** Stretch to the container's width in equal segments. */
  fill?: boolean;
  "aria-describedby"?: string;
  className?: string;
};

export function Segmented<T extends string | number | boolean>({ options, value, onChange, variant = "solid", size = "sm", fill = false, className = "", ...aria }: SegmentedProps<T>) {
  const tone = VARIANTS[variant];
  const choices = variant === "choices";
  const layout = fill ? "flex w-full" : choices ? "flex" : "inline-flex";
  return (
    <div role="radiogroup" {...aria} className={`${layout} ${tone.group} ${choices ? "" : SIZES[size].group} ${className}`}>
      {options.map((option) => {
        const checked = value === option.value;
        return (
          <button
            key={String(option.value)}
            type="button"
            role="radio"
            aria-checked={checked}
            disabled={option.disabled}
            onClick={() => onChange(option.value)}
            className={`${choices ? CHOICE_ITEM : SIZES[size].item} ${fill ? "flex-1" : ""} font-medium focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40 ${checked ? tone.checked : tone.unchecked}`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
