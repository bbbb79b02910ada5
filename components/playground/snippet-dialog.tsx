"use client";

import { useMemo, useState, type KeyboardEvent } from "react";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Segmented } from "@/components/ui/segmented";
import type { ChatCompletionBody } from "@/components/inference/queries";
import { chatSnippets, type ChatSnippets } from "@/lib/client/chat-snippets";

// "Get code": the exact request of a run (or the one Run would send) as curl, Python and
// TypeScript (openai SDKs), with the API key read from $ANNEAL_API_KEY.

const LANGUAGES: { id: keyof ChatSnippets; label: string }[] = [
  { id: "curl", label: "curl" },
  { id: "python", label: "Python" },
  { id: "typescript", label: "TypeScript" },
];

export interface SnippetSource {
  label: string;
  body: ChatCompletionBody;
  /** Whether this is the request a run sent (else the one Run will send). */
  sent: boolean;
  /** The Svc-Project it is recorded in. */
  projectRef: string;
}

export function SnippetDialog({ open, onOpenChange, origin, sources }: { open: boolean; onOpenChange: (open: boolean) => void; origin: string; sources: SnippetSource[] }) {
  const [language, setLanguage] = useState<keyof ChatSnippets>("curl");
  const [sourceIndex, setSourceIndex] = useState(0);
  const source = sources[Math.min(sourceIndex, sources.length - 1)];
  const snippets = useMemo(() => source && chatSnippets({ origin, projectRef: source.projectRef, body: source.body as Record<string, unknown> }), [origin, source]);

  function onTabKey(event: KeyboardEvent) {
    const i = LANGUAGES.findIndex((l) => l.id === language);
    const next = event.key === "ArrowRight" ? (i + 1) % LANGUAGES.length : event.key === "ArrowLeft" ? (i + LANGUAGES.length - 1) % LANGUAGES.length : -1;
    if (next < 0) return;
    event.preventDefault();
    setLanguage(LANGUAGES[next].id);
    document.getElementById(`snippet-tab-${LANGUAGES[next].id}`)?.focus();
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="lg"
        title="Get code"
        description={
          <>
            {source?.sent ? "The exact request of the last run" : "The request Run will send"}, with your key in <code className="font-mono text-xs">$ANNEAL_API_KEY</code> (Settings → API keys).
          </>
        }
      >
        {sources.length > 1 && (
          <Segmented aria-label="Column" options={sources.map((s, i) => ({ value: i, label: s.label }))} value={sourceIndex} onChange={setSourceIndex} className="mb-3" />
        )}
        <div className="flex items-center justify-between gap-3 border-b border-zinc-200">
          <div role="tablist" aria-label="Language" className="-mb-px flex" onKeyDown={onTabKey}>
            {LANGUAGES.map((l) => (
              <button
                key={l.id}
                id={`snippet-tab-${l.id}`}
                type="button"
                role="tab"
                aria-selected={l.id === language}
                aria-controls="snippet-panel"
                tabIndex={l.id === language ? 0 : -1}
                onClick={() => setLanguage(l.id)}
                className={`border-b-2 px-3 py-2 text-[13px] font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${l.id === language ? "border-brand-600 text-zinc-900" : "border-transparent text-zinc-500 hover:text-zinc-800"}`}
              >
                {l.label}
              </button>
            ))}
          </div>
          {snippets && <CopyButton value={snippets[language]} label={`Copy ${LANGUAGES.find((l) => l.id === language)?.label}`} className="mb-1.5" />}
        </div>
        {snippets && (
          <div id="snippet-panel" role="tabpanel" aria-labelledby={`snippet-tab-${language}`} className="mt-3">
            <pre
              data-testid="snippet-code"
              data-language={language}
              tabIndex={0}
              className="max-h-[50vh] overflow-auto rounded-lg bg-zinc-950 p-3.5 font-mono text-[11.5px] leading-relaxed text-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <code>{snippets[language]}</code>
            </pre>
            <p className="mt-2 text-xs text-zinc-500">
              {language === "curl" ? "Streams server-sent events, as the playground does." : `Needs the openai package (${language === "python" ? "pip install openai" : "npm install openai"}).`}
            </p>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
