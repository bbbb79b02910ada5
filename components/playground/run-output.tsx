"use client";

import { Clock, Gauge, Hash, Square, Timer } from "lucide-react";
import { CallReactions } from "@/components/calls/call-reactions";
import { Alert } from "@/components/ui/alert";
import { TokenLogprobs, type AnswerView } from "@/components/playground/token-logprobs";
import type { ChatRun } from "@/components/playground/use-chat-run";

// One run's answer as it streams (plain text, or tokens tinted by logprob) and, once it has them,
// its usage and latency; a finished answer gets thumbs up/down on its recorded call.

export type OutputView = AnswerView;

const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toLocaleString()} ms`);

export function RunStats({ run }: { run: ChatRun }) {
  const { usage, ttftMs, totalMs, finishReason } = run;
  const completion = usage?.completion_tokens ?? run.tokens.length;
  const genMs = totalMs !== undefined && ttftMs !== undefined ? totalMs - ttftMs : undefined;
  const rate = genMs !== undefined && genMs >= 50 && completion > 1 ? ((completion - 1) / genMs) * 1000 : undefined;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <dl data-testid="run-stats" className="flex flex-wrap items-center gap-x-3.5 gap-y-1 text-[11px] text-zinc-500 tabular-nums">
        <div className="flex items-center gap-1" title="Time to first token">
          <Timer className="size-3" aria-hidden />
          <dt className="sr-only">Time to first token</dt>
          <dd>TTFT {ttftMs !== undefined ? ms(ttftMs) : "—"}</dd>
        </div>
        <div className="flex items-center gap-1" title="Total time">
          <Clock className="size-3" aria-hidden />
          <dt className="sr-only">Total time</dt>
          <dd>{totalMs !== undefined ? ms(totalMs) : "…"} total</dd>
        </div>
        <div className="flex items-center gap-1" title="Prompt + completion tokens">
          <Hash className="size-3" aria-hidden />
          <dt className="sr-only">Tokens</dt>
          <dd data-testid="run-usage">
            {usage ? `${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens` : `${completion} tokens`}
          </dd>
        </div>
        {rate !== undefined && (
          <div className="flex items-center gap-1" title="Generation speed after the first token">
            <Gauge className="size-3" aria-hidden />
            <dt className="sr-only">Speed</dt>
            <dd>{rate.toFixed(0)} tok/s</dd>
          </div>
        )}
        {finishReason && (
          <div className="flex items-center gap-1">
            <dt className="text-zinc-400">finish</dt>
            <dd className="font-mono text-zinc-600">{finishReason}</dd>
          </div>
        )}
        {run.status === "stopped" && (
          <div className="flex items-center gap-1 text-amber-700">
            <Square className="size-3" aria-hidden />
            <dd>stopped</dd>
          </div>
        )}
      </dl>
      {run.status === "done" && run.callId && <CallReactions callId={run.callId} />}
    </div>
  );
}

export function RunOutput({ run, view }: { run: ChatRun; view: OutputView }) {
  const streaming = run.status === "waiting" || run.status === "streaming";
  const showTokens = view === "tokens" && run.tokens.length > 0;
  return (
    <div className="space-y-2" aria-busy={streaming}>
      {run.status === "waiting" && !run.text && (
        <p className="flex items-center gap-2 text-sm text-zinc-400">
          <span className="size-1.5 animate-ping rounded-full bg-brand-500" aria-hidden />
          Waiting for the first token…
        </p>
      )}
      {showTokens ? (
        <TokenLogprobs tokens={run.tokens} streaming={streaming} />
      ) : (
        (run.text || run.status !== "waiting") && (
          <div data-testid="run-text" className="text-sm leading-6 break-words whitespace-pre-wrap text-zinc-800">
            {run.text}
            {streaming && <span className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-sm bg-brand-500" aria-hidden />}
            {!streaming && !run.text && run.status !== "error" && <span className="text-zinc-400 italic">(empty answer)</span>}
          </div>
        )
      )}
      {view === "tokens" && !streaming && run.tokens.length === 0 && run.text && (
        <p className="text-xs text-zinc-400">No logprobs for this run: turn on “Logprobs” in the parameters.</p>
      )}
      {run.error && <Alert title="The run failed">{run.error}</Alert>}
      {run.status !== "error" && <RunStats run={run} />}
    </div>
  );
}
