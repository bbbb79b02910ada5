"use client";

import * as Tooltip from "@radix-ui/react-tooltip";
import type { LogprobToken } from "@/components/inference/queries";
import { Segmented } from "@/components/ui/segmented";

// The answer as its tokens, each tinted by how likely the model found it (the less likely, the
// warmer); hovering or focusing a token shows its probability and the alternatives the model
// weighed at that position. Tab moves from token to token.

const pct = (logprob: number) => {
  const p = Math.exp(logprob) * 100;
  return p >= 99.95 ? "100%" : p >= 10 ? `${p.toFixed(1)}%` : p >= 0.01 ? `${p.toFixed(2)}%` : "<0.01%";
};

/** Control tokens (`<|im_end|>`): shown small and muted, as the model's markers rather than text. */
const SPECIAL = /^<\|[^|]+\|>$/;

/** Visible whitespace, so a token that is a space or newline can be read. */
export const showToken = (token: string) => token.replaceAll(" ", "␣").replaceAll("\n", "↵").replaceAll("\t", "⇥") || "∅";

/** Background for a token of probability p: none when near-certain, amber to red as it drops. */
export function tokenTint(logprob: number): string {
  const p = Math.exp(logprob);
  if (p >= 0.9) return "transparent";
  if (p >= 0.5) return "rgb(254 243 199)"; // amber-100
  if (p >= 0.2) return "rgb(253 230 138)"; // amber-200
  if (p >= 0.05) return "rgb(253 186 116)"; // orange-300
  return "rgb(252 165 165)"; // red-300
}

export const TINT_LEGEND = [
  { label: "≥ 90%", logprob: Math.log(0.95) },
  { label: "50–90%", logprob: Math.log(0.7) },
  { label: "20–50%", logprob: Math.log(0.3) },
  { label: "5–20%", logprob: Math.log(0.1) },
  { label: "< 5%", logprob: Math.log(0.01) },
];

function Alternatives({ entry }: { entry: LogprobToken }) {
  const alternatives = entry.top_logprobs.length > 0 ? entry.top_logprobs : [{ token: entry.token, logprob: entry.logprob, bytes: entry.bytes }];
  const chosenListed = alternatives.some((a) => a.token === entry.token);
  return (
    <div className="w-60">
      <div className="flex items-baseline justify-between gap-3 border-b border-zinc-700 pb-1.5">
        <code className="truncate font-mono text-[13px] text-white">{showToken(entry.token)}</code>
        <span className="shrink-0 font-mono text-xs text-zinc-300">
          {pct(entry.logprob)} <span className="text-zinc-500">({entry.logprob.toFixed(3)})</span>
        </span>
      </div>
      <ol className="mt-1.5 space-y-0.5" aria-label="Alternatives">
        {alternatives.map((alt, i) => {
          const chosen = alt.token === entry.token;
          return (
            <li key={i} className={`relative flex items-center justify-between gap-2 rounded px-1.5 py-0.5 font-mono text-xs ${chosen ? "text-brand-200" : "text-zinc-200"}`}>
              <span className="absolute inset-y-0 left-0 rounded bg-white/10" style={{ width: `${Math.max(2, Math.exp(alt.logprob) * 100)}%` }} aria-hidden />
              <span className="relative truncate">
                {chosen ? "▸ " : ""}
                {showToken(alt.token)}
              </span>
              <span className="relative shrink-0 tabular-nums">{pct(alt.logprob)}</span>
            </li>
          );
        })}
      </ol>
      {!chosenListed && <p className="mt-1.5 text-[11px] text-zinc-400">The sampled token was outside the top {alternatives.length}.</p>}
    </div>
  );
}

export function TokenLogprobs({ tokens, streaming }: { tokens: LogprobToken[]; streaming?: boolean }) {
  return (
    <div data-testid="token-view" className="font-mono text-[13px] leading-6 break-words whitespace-pre-wrap text-zinc-800">
      {tokens.map((entry, i) => (
        <Tooltip.Root key={i}>
          <Tooltip.Trigger asChild>
            <span
              tabIndex={0}
              data-token
              aria-label={`${showToken(entry.token)}: ${pct(entry.logprob)}`}
              className="cursor-default rounded-[3px] outline-none hover:ring-1 hover:ring-zinc-400 focus-visible:ring-2 focus-visible:ring-brand-500"
              style={{ backgroundColor: tokenTint(entry.logprob) }}
            >
              {SPECIAL.test(entry.token) ? <span className="mx-0.5 rounded bg-zinc-100 px-1 text-[10px] text-zinc-400 ring-1 ring-zinc-200">{entry.token}</span> : entry.token}
            </span>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content side="top" sideOffset={6} collisionPadding={8} className="z-50 rounded-lg bg-zinc-900 px-3 py-2 shadow-xl data-[state=delayed-open]:animate-[fade-in_100ms_ease-out]">
              <Alternatives entry={entry} />
              <Tooltip.Arrow className="fill-zinc-900" />
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      ))}
      {streaming && <span className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-sm bg-brand-500" aria-hidden />}
    </div>
  );
}

export function TintLegend() {
  return (
    <div className="flex items-center gap-1.5 text-[11px] text-zinc-500">
      <span>Token probability</span>
      {TINT_LEGEND.map((item) => (
        <span key={item.label} className="inline-flex items-center gap-1">
          <span className="size-2.5 rounded-sm ring-1 ring-zinc-300 ring-inset" style={{ backgroundColor: tokenTint(item.logprob) }} aria-hidden />
          {item.label}
        </span>
      ))}
    </div>
  );
}

export type AnswerView = "text" | "tokens";
const ANSWER_VIEWS = [
  { value: "text", label: "Text" },
  { value: "tokens", label: "Tokens" },
] as const;

/** Whether answers show as text or as their tinted tokens (the playground's and a call's). */
export function AnswerViewToggle({ view, onView }: { view: AnswerView; onView: (view: AnswerView) => void }) {
  return <Segmented aria-label="Answer view" options={ANSWER_VIEWS} value={view} onChange={onView} />;
}
