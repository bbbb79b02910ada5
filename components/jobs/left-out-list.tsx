import type { LeftOut } from "@/lib/training/from-judgement/schemas";

// Why judged calls were left out of the training data, one line per reason with its count.

export function LeftOutList({ leftOut }: { leftOut: LeftOut[] }) {
  if (leftOut.length === 0) return null;
  return (
    <ul className="list-disc space-y-0.5 pl-5 text-xs text-zinc-600" aria-label="Left out">
      {leftOut.map((entry) => (
        <li key={entry.reason}>
          <span className="tabular-nums">{entry.count}</span> left out: {entry.message}
        </li>
      ))}
    </ul>
  );
}
