"use client";

import * as Tooltip from "@radix-ui/react-tooltip";
import { ArrowRightLeft, Code2, Columns2, CornerDownLeft, Eraser, MessageSquarePlus, Pencil, Play, Plus, Square, Trash2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useWorkspace } from "@/components/identity/queries";
import { useModels } from "@/components/inference/queries";
import { ParamsPanel } from "@/components/playground/params-panel";
import { RunOutput, RunStats, type OutputView } from "@/components/playground/run-output";
import { buildChatRequest, DEFAULT_SETTINGS, effectiveModel, settingsSummary, validateSettings, type RunSettings, type SettingsErrors, type Turn } from "@/components/playground/run-settings";
import { SnippetDialog, type SnippetSource } from "@/components/playground/snippet-dialog";
import { TintLegend, TokenLogprobs } from "@/components/playground/token-logprobs";
import { useChatRun, type ChatRun } from "@/components/playground/use-chat-run";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";

// The playground: a conversation (system prompt, user and assistant turns, all editable), one or
// two columns of model + parameters run on it concurrently, answers streamed token by token with
// their logprobs, usage and latency, and the exact request as code. Ctrl/⌘+Enter runs, Escape
// stops.

interface Message extends Turn {
  id: string;
  /** The run that wrote this answer (logprobs, usage, latency), while its text is unedited. */
  run?: ChatRun;
}

const COLUMNS = [
  { label: "A", badge: "bg-brand-600 text-white", ring: "ring-brand-200", tab: "data-[on=true]:bg-brand-600" },
  { label: "B", badge: "bg-violet-600 text-white", ring: "ring-violet-200", tab: "data-[on=true]:bg-violet-600" },
] as const;

const EXAMPLES = ["What is 12 + 7?", "Reverse the word: river", "Uppercase: blue sky", "My name is Ada."];

let nextId = 0;
const newId = () => `m${++nextId}`;

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-sans text-[10px] font-medium text-zinc-500">{children}</kbd>;
}

function ColumnBadge({ index }: { index: 0 | 1 }) {
  return <span className={`inline-flex size-5 items-center justify-center rounded text-[11px] font-bold ${COLUMNS[index].badge}`}>{COLUMNS[index].label}</span>;
}

function AutoTextarea({ value, onChange, label, placeholder, className = "", minRows = 1, autoFocus }: { value: string; onChange: (v: string) => void; label: string; placeholder?: string; className?: string; minRows?: number; autoFocus?: boolean }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 320)}px`;
  }, [value]);
  return (
    <textarea
      ref={ref}
      aria-label={label}
      rows={minRows}
      value={value}
      placeholder={placeholder}
      autoFocus={autoFocus}
      onChange={(e) => onChange(e.target.value)}
      className={`block w-full resize-none bg-transparent text-sm leading-6 text-zinc-900 placeholder:text-zinc-400 focus:outline-none ${className}`}
    />
  );
}

function MessageRow({ message, view, onChange, onDelete }: { message: Message; view: OutputView; onChange: (m: Message) => void; onDelete: () => void }) {
  const isUser = message.role === "user";
  const readOnlyRun = message.run && !isUser;
  return (
    <div data-testid={`message-${message.role}`} className="group relative grid grid-cols-[5.5rem_1fr_auto] gap-3 rounded-lg px-3 py-2.5 hover:bg-zinc-50">
      <button
        type="button"
        onClick={() => onChange({ ...message, role: isUser ? "assistant" : "user", run: undefined })}
        title="Switch role"
        className="h-6 self-start rounded px-1.5 text-left text-[11px] font-semibold tracking-wide text-zinc-500 uppercase hover:bg-zinc-200/70 hover:text-zinc-800"
      >
        {isUser ? "User" : "Assistant"}
      </button>
      <div className="min-w-0">
        {readOnlyRun ? (
          <div className="space-y-1.5">
            {view === "tokens" && message.run!.tokens.length > 0 ? (
              <TokenLogprobs tokens={message.run!.tokens} />
            ) : (
              <div data-testid="run-text" className="text-sm leading-6 break-words whitespace-pre-wrap text-zinc-800">
                {message.content || <span className="text-zinc-400 italic">(empty answer)</span>}
              </div>
            )}
            <div className="flex flex-wrap items-center gap-x-3">
              {message.run!.model && <span className="font-mono text-[11px] text-zinc-400">{message.run!.model}</span>}
              <RunStats run={message.run!} />
            </div>
          </div>
        ) : (
          <AutoTextarea label={`${isUser ? "User" : "Assistant"} message`} value={message.content} onChange={(content) => onChange({ ...message, content })} placeholder={isUser ? "Enter a user message" : "Enter an assistant message"} />
        )}
      </div>
      <div className="flex items-start gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
        {readOnlyRun && (
          <button type="button" aria-label="Edit answer" title="Edit (drops its logprobs)" onClick={() => onChange({ ...message, run: undefined })} className="rounded p-1 text-zinc-400 hover:bg-zinc-200/70 hover:text-zinc-700">
            <Pencil className="size-3.5" />
          </button>
        )}
        <button type="button" aria-label="Delete message" onClick={onDelete} className="rounded p-1 text-zinc-400 hover:bg-zinc-200/70 hover:text-red-600">
          <Trash2 className="size-3.5" />
        </button>
      </div>
    </div>
  );
}

function CompareColumn({ index, run, settings, model, view, onKeep }: { index: 0 | 1; run: ChatRun | null; settings: RunSettings; model?: string; view: OutputView; onKeep: () => void }) {
  const done = run && (run.status === "done" || run.status === "stopped");
  return (
    <section aria-label={`Column ${COLUMNS[index].label}`} data-testid={`column-${COLUMNS[index].label}`} className={`flex min-w-0 flex-col rounded-lg border border-zinc-200 bg-white ring-2 ring-transparent ${run ? "" : "border-dashed"}`}>
      <header className="flex items-center gap-2 border-b border-zinc-100 px-3 py-2">
        <ColumnBadge index={index} />
        <span className="truncate font-mono text-[12px] font-medium text-zinc-800">{model ?? "…"}</span>
        <span className="ml-auto truncate text-[11px] text-zinc-400">{settingsSummary(settings).join(" · ")}</span>
      </header>
      <div className="flex-1 px-3 py-2.5">
        {run ? <RunOutput run={run} view={view} /> : <p className="text-sm text-zinc-400">Run to see this column’s answer.</p>}
      </div>
      {done && run.text && (
        <footer className="border-t border-zinc-100 px-3 py-1.5">
          <button type="button" onClick={onKeep} className="inline-flex items-center gap-1 rounded px-1.5 py-1 text-[12px] font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900">
            <MessageSquarePlus className="size-3.5" /> Continue with {COLUMNS[index].label}
          </button>
        </footer>
      )}
    </section>
  );
}

/** `initialModel` (the page's `?model=`, e.g. from a model's "Open in playground") starts both columns on it;
 *  `initialCompare` (`&compare=`) opens the comparison with column B on that model and A's parameters. */
export function Playground({ origin, initialModel = "", initialCompare }: { origin: string; initialModel?: string; initialCompare?: string }) {
  const { data: workspace } = useWorkspace();
  const projectRef = workspace ? `${workspace.team}/${workspace.project}` : undefined;
  const models = useModels();
  const [system, setSystem] = useState("");
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState("");
  const [compare, setCompare] = useState(initialCompare !== undefined);
  const [settings, setSettings] = useState<[RunSettings, RunSettings]>([
    { ...DEFAULT_SETTINGS, model: initialModel },
    initialCompare === undefined ? { ...DEFAULT_SETTINGS, model: initialModel, temperature: "1.2" } : { ...DEFAULT_SETTINGS, model: initialCompare },
  ]);
  const [editing, setEditing] = useState<0 | 1>(0);
  const [view, setView] = useState<OutputView>("text");
  const [showErrors, setShowErrors] = useState(false);
  const [codeOpen, setCodeOpen] = useState(false);
  const runA = useChatRun();
  const runB = useChatRun();
  const runs = [runA, runB] as const;
  const busy = runA.busy || runB.busy;
  const threadEnd = useRef<HTMLDivElement>(null);
  const composer = useRef<HTMLTextAreaElement>(null);

  const errors: [SettingsErrors, SettingsErrors] = useMemo(() => [validateSettings(settings[0]), validateSettings(settings[1])], [settings]);
  const activeColumns: (0 | 1)[] = compare ? [0, 1] : [0];
  const invalid = activeColumns.some((i) => Object.keys(errors[i]).length > 0);
  const modelOf = (i: 0 | 1) => effectiveModel(settings[i], models.data);

  // A finished single-column answer joins the conversation.
  useEffect(() => {
    const run = runA.run;
    if (compare || !run || (run.status !== "done" && run.status !== "stopped")) return;
    setMessages((list) => [...list, { id: newId(), role: "assistant", content: run.text, run }]);
    runA.clear();
  }, [runA, compare]);

  useEffect(() => {
    threadEnd.current?.scrollIntoView({ block: "nearest" });
  }, [messages.length, runA.run?.text, runB.run?.text]);

  const turnsFor = useCallback((list: Message[]): Turn[] => list.filter((m) => m.content.trim() || m.role === "assistant").map(({ role, content }) => ({ role, content })), []);

  const requestFor = useCallback((i: 0 | 1, turns: Turn[]) => buildChatRequest(system, turns, settings[i], effectiveModel(settings[i], models.data)), [system, settings, models.data]);

  const run = useCallback(() => {
    if (busy) return;
    if (invalid) {
      setShowErrors(true);
      const bad = activeColumns.find((i) => Object.keys(errors[i]).length > 0);
      if (bad !== undefined) setEditing(bad);
      return;
    }
    let list = messages;
    if (draft.trim()) {
      list = [...messages, { id: newId(), role: "user", content: draft }];
      setMessages(list);
      setDraft("");
    }
    const turns = turnsFor(list);
    if (turns.length === 0) {
      composer.current?.focus();
      return;
    }
    setShowErrors(false);
    for (const i of activeColumns) void runs[i].start(requestFor(i, turns), projectRef);
  }, [busy, invalid, activeColumns, errors, messages, draft, turnsFor, runs, requestFor, projectRef]);

  const stop = useCallback(() => {
    runA.stop();
    runB.stop();
  }, [runA, runB]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if ((event.target as Element | null)?.closest?.("[role=dialog]")) return;
      if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        run();
      } else if (event.key === "Escape" && busy) {
        event.preventDefault();
        stop();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [run, stop, busy]);

  function keep(i: 0 | 1) {
    const result = runs[i].run;
    if (!result) return;
    setMessages((list) => [...list, { id: newId(), role: "assistant", content: result.text, run: result }]);
    runA.clear();
    runB.clear();
  }

  function toggleCompare() {
    if (busy) stop();
    runA.clear();
    runB.clear();
    setCompare((on) => !on);
    setEditing(0);
  }

  function clearAll() {
    stop();
    runA.clear();
    runB.clear();
    setMessages([]);
    setDraft("");
  }

  const snippetSources: SnippetSource[] = activeColumns.map((i) => {
    const sent = runs[i].run?.request ?? (i === 0 ? [...messages].reverse().find((m) => m.run)?.run?.request : undefined);
    const pending = [...turnsFor(messages), ...(draft.trim() ? [{ role: "user" as const, content: draft }] : [])];
    const body = sent ?? requestFor(i, pending.length > 0 ? pending : [{ role: "user", content: "Hello!" }]);
    return { label: compare ? `Column ${COLUMNS[i].label}` : "Request", body, sent: Boolean(sent) };
  });

  const liveSingle = !compare ? runA.run : null;
  const mod = isMac() ? "⌘" : "Ctrl";
  const shownErrors = (i: 0 | 1): SettingsErrors => {
    const fromApi = runs[i].run?.fieldErrors ?? {};
    const mapped: SettingsErrors = {};
    for (const [field, message] of Object.entries(fromApi)) {
      const key = field === "response_format" ? "json_schema" : field;
      if (["model", "temperature", "top_p", "top_k", "max_tokens", "seed", "stop", "json_schema", "top_logprobs"].includes(key)) mapped[key as keyof SettingsErrors] = message;
    }
    return { ...mapped, ...(showErrors || Object.keys(errors[i]).length > 0 ? errors[i] : {}) };
  };

  return (
    <Tooltip.Provider delayDuration={120} skipDelayDuration={60}>
      <div className="flex h-[calc(100dvh-7rem)] min-h-[32rem] flex-col">
        <PageHeader
          title="Playground"
          actions={
            <>
              {projectRef && (
                <span className="hidden items-center gap-1.5 text-xs text-zinc-500 lg:inline-flex" title="Runs are recorded as calls in this project, and the code sends the same header">
                  Recorded in <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700 ring-1 ring-zinc-200">Svc-Project: {projectRef}</code>
                </span>
              )}
              <div role="radiogroup" aria-label="Answer view" className="inline-flex rounded-md border border-zinc-300 bg-white p-0.5 shadow-xs">
                {(["text", "tokens"] as const).map((v) => (
                  <button key={v} type="button" role="radio" aria-checked={view === v} onClick={() => setView(v)} className={`rounded px-2.5 py-1 text-[13px] font-medium ${view === v ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100"}`}>
                    {v === "text" ? "Text" : "Tokens"}
                  </button>
                ))}
              </div>
              <Button variant="secondary" size="sm" aria-pressed={compare} onClick={toggleCompare} className={compare ? "border-violet-300 bg-violet-50 text-violet-800 hover:bg-violet-100" : ""}>
                <Columns2 /> Compare
              </Button>
              <Button variant="secondary" size="sm" onClick={() => setCodeOpen(true)}>
                <Code2 /> Get code
              </Button>
              <Button variant="ghost" size="sm" onClick={clearAll} aria-label="Clear conversation" title="Clear conversation">
                <Eraser />
              </Button>
            </>
          }
        />
        <div className="-mt-2 flex min-h-0 flex-1 gap-4">
          {/* Conversation and answers */}
          <div className="flex min-w-0 flex-1 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs">
            <div className="min-h-0 flex-1 overflow-y-auto">
              <div className="border-b border-zinc-100 px-3 py-2">
                <div className="grid grid-cols-[5.5rem_1fr] gap-3 px-3 py-0.5">
                  <span className="pt-0.5 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">System</span>
                  <AutoTextarea label="System prompt" value={system} onChange={setSystem} placeholder="You are a helpful assistant. (optional)" />
                </div>
              </div>
              <div className="space-y-0.5 px-3 py-2">
                {messages.length === 0 && !liveSingle && !draft && (
                  <div className="px-3 py-8 text-center">
                    <p className="text-sm font-medium text-zinc-800">Start a conversation</p>
                    <p className="mt-1 text-sm text-zinc-500">
                      Type a message below and press <Kbd>{mod}</Kbd> <Kbd>Enter</Kbd>. Try one of these with <span className="font-mono text-[12px]">anneal/tiny-chat</span>:
                    </p>
                    <div className="mt-3 flex flex-wrap justify-center gap-1.5">
                      {EXAMPLES.map((text) => (
                        <button key={text} type="button" onClick={() => { setDraft(text); composer.current?.focus(); }} className="rounded-full border border-zinc-200 bg-zinc-50 px-3 py-1 text-[13px] text-zinc-700 hover:border-brand-300 hover:bg-brand-50">
                          {text}
                        </button>
                      ))}
                    </div>
                  </div>
                )}
                {messages.map((message) => (
                  <MessageRow
                    key={message.id}
                    message={message}
                    view={view}
                    onChange={(next) => setMessages((list) => list.map((m) => (m.id === next.id ? next : m)))}
                    onDelete={() => setMessages((list) => list.filter((m) => m.id !== message.id))}
                  />
                ))}
                {liveSingle && (
                  <div data-testid="live-answer" className="grid grid-cols-[5.5rem_1fr_auto] gap-3 rounded-lg bg-brand-50/40 px-3 py-2.5">
                    <span className="pt-0.5 text-[11px] font-semibold tracking-wide text-brand-700 uppercase">Assistant</span>
                    <RunOutput run={liveSingle} view={view} />
                    <span />
                  </div>
                )}
                {compare && (runA.run || runB.run) && (
                  <div className="grid grid-cols-2 gap-3 px-1 pt-2 pb-1">
                    {([0, 1] as const).map((i) => (
                      <CompareColumn key={i} index={i} run={runs[i].run} settings={settings[i]} model={runs[i].run?.model ?? modelOf(i)} view={view} onKeep={() => keep(i)} />
                    ))}
                  </div>
                )}
                <div ref={threadEnd} />
              </div>
            </div>
            {/* Composer */}
            <div className="border-t border-zinc-200 bg-zinc-50/60 p-2.5">
              <div className="rounded-lg border border-zinc-300 bg-white px-3 py-2 shadow-xs focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/25">
                <textarea
                  ref={composer}
                  aria-label="Message"
                  rows={2}
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  placeholder={messages.length ? "Reply, or run again on the conversation as it is" : "Message the model"}
                  className="block max-h-40 w-full resize-none bg-transparent text-sm leading-6 text-zinc-900 placeholder:text-zinc-400 focus:outline-none"
                />
                <div className="mt-1.5 flex items-center gap-2">
                  <button
                    type="button"
                    onClick={() => {
                      if (!draft.trim()) return;
                      setMessages((list) => [...list, { id: newId(), role: "user", content: draft }]);
                      setDraft("");
                    }}
                    disabled={!draft.trim()}
                    className="inline-flex items-center gap-1 rounded px-1.5 py-1 text-[12px] font-medium text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-40"
                    title="Add to the conversation without running"
                  >
                    <Plus className="size-3.5" /> Add message
                  </button>
                  {view === "tokens" && <TintLegend />}
                  <div className="ml-auto flex items-center gap-2">
                    {showErrors && invalid && <span role="alert" className="text-xs text-red-600">Fix the highlighted parameters</span>}
                    {busy ? (
                      <Button size="sm" variant="secondary" onClick={stop}>
                        <Square className="fill-current" /> Stop <Kbd>Esc</Kbd>
                      </Button>
                    ) : (
                      <Button size="sm" onClick={run} disabled={!projectRef}>
                        <Play className="fill-current" /> Run
                        <span className="ml-0.5 inline-flex items-center gap-0.5 rounded bg-white/20 px-1 text-[10px]">
                          {mod} <CornerDownLeft className="!size-2.5" />
                        </span>
                      </Button>
                    )}
                  </div>
                </div>
              </div>
            </div>
          </div>

          {/* Parameters */}
          <aside aria-label="Parameters" className="flex w-72 shrink-0 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs">
            <div className="flex items-center justify-between gap-2 border-b border-zinc-100 px-3.5 py-2.5">
              <h2 className="text-sm font-semibold text-zinc-900">Parameters</h2>
              {compare && (
                <div className="flex items-center gap-1">
                  <div role="tablist" aria-label="Column" className="inline-flex rounded-md bg-zinc-100 p-0.5">
                    {([0, 1] as const).map((i) => (
                      <button
                        key={i}
                        type="button"
                        role="tab"
                        aria-selected={editing === i}
                        data-on={editing === i}
                        onClick={() => setEditing(i)}
                        className={`rounded px-2.5 py-0.5 text-[12px] font-semibold text-zinc-600 data-[on=true]:text-white ${COLUMNS[i].tab} ${Object.keys(errors[i]).length ? "ring-1 ring-red-400" : ""}`}
                      >
                        {COLUMNS[i].label}
                      </button>
                    ))}
                  </div>
                  <button
                    type="button"
                    title={`Copy ${COLUMNS[editing].label}'s parameters to ${COLUMNS[1 - editing].label}`}
                    aria-label={`Copy ${COLUMNS[editing].label}'s parameters to ${COLUMNS[1 - editing].label}`}
                    onClick={() => setSettings((s) => (editing === 0 ? [s[0], { ...s[0] }] : [{ ...s[1] }, s[1]]))}
                    className="rounded p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
                  >
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
              <ParamsPanel
                key={editing}
                settings={settings[editing]}
                onChange={(next) => setSettings((s) => (editing === 0 ? [next, s[1]] : [s[0], next]))}
                errors={shownErrors(editing)}
                models={models}
              />
            </div>
          </aside>
        </div>
      </div>
      {projectRef && <SnippetDialog open={codeOpen} onOpenChange={setCodeOpen} origin={origin} projectRef={projectRef} sources={snippetSources} />}
    </Tooltip.Provider>
  );
}
