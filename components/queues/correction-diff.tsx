import { wordDiff } from "@/lib/client/word-diff";

/** A corrected reply against the model's: removed words struck through in red, added ones in green. */
export function CorrectionDiff({ answer, correction, label }: { answer: string; correction: string; label: string }) {
  return (
    <p aria-label={label} className="rounded border border-zinc-200 bg-white px-2 py-1 text-xs whitespace-pre-wrap text-zinc-700">
      {wordDiff(answer, correction).map((part, i) =>
        part.kind === "same" ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === "removed" ? (
          <del key={i} className="bg-red-50 text-red-700">
            {part.text}
          </del>
        ) : (
          <ins key={i} className="bg-green-50 text-green-800 no-underline">
            {part.text}
          </ins>
        ),
      )}
    </p>
  );
}
