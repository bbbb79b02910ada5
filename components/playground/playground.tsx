"use client";

import * as Tooltip from "@radix-ui/react-tooltip";
import { useRef, useState } from "react";
import { useWorkspace } from "@/components/identity/queries";
import { useModels } from "@/components/inference/queries";
import { COLUMNS, type ColumnIndex } from "@/components/playground/columns";
import { CompareColumns } from "@/components/playground/compare-columns";
import { Composer } from "@/components/playground/composer";
import { MessageList } from "@/components/playground/message-list";
import { ParamsSidebar } from "@/components/playground/params-sidebar";
import { PlaygroundToolbar } from "@/components/playground/playground-toolbar";
import type { OutputView } from "@/components/playground/run-output";
import { buildChatRequest, effectiveModel, type Turn } from "@/components/playground/run-settings";
import { SnippetDialog, type SnippetSource } from "@/components/playground/snippet-dialog";
import { recordingProject } from "@/lib/client/recording-project";
import { useColumnSettings } from "@/components/playground/use-column-settings";
import { useConversation } from "@/components/playground/use-conversation";
import { useRunPair } from "@/components/playground/use-run-pair";
import { useRunShortcuts } from "@/components/playground/use-run-shortcuts";
import { PageHeader } from "@/components/ui/page-header";

// The playground: a conversation (system prompt, user and assistant turns, all editable), one or
// two columns of model + parameters run on it concurrently, answers streamed token by token with
// their logprobs, usage and latency, and the exact request as code. Ctrl/⌘+Enter runs, Escape
// stops. This file wires the pieces: the conversation, the columns' settings and their runs.

/** `initialModel` (the page's `?model=`, e.g. from a model's "Open in playground") starts both columns on it;
 *  `initialCompare` (`&compare=`) opens the comparison with column B on that model and A's parameters. */
export function Playground({ origin, initialModel = "", initialCompare }: { origin: string; initialModel?: string; initialCompare?: string }) {
  const { data: workspace } = useWorkspace();
  const projectRef = workspace ? `${workspace.team}/${workspace.project}` : undefined;
  const models = useModels();
  const conversation = useConversation();
  const columns = useColumnSettings(initialModel, initialCompare);
  const pair = useRunPair(initialCompare !== undefined, conversation.appendAnswer);
  const [view, setView] = useState<OutputView>("text");
  const [codeOpen, setCodeOpen] = useState(false);
  const composer = useRef<HTMLTextAreaElement>(null);

  const modelOf = (i: ColumnIndex) => effectiveModel(columns.settings[i], models.data);
  const requestFor = (i: ColumnIndex, turns: Turn[]) => buildChatRequest(conversation.system, turns, columns.settings[i], modelOf(i));
  const projectFor = (i: ColumnIndex) => recordingProject(modelOf(i), projectRef);

  /** Runs the active columns on the conversation, the draft joining it as the next user turn. */
  function run() {
    if (pair.busy || columns.refuseInvalid(pair.columns)) return;
    const turns = conversation.commitDraft();
    if (turns.length === 0) {
      composer.current?.focus();
      return;
    }
    columns.runSent();
    pair.start((i) => requestFor(i, turns), projectFor);
  }
  useRunShortcuts({ run, stop: pair.stop, busy: pair.busy });

  function toggleCompare() {
    pair.toggleCompare();
    columns.setEditing(0);
  }
  function clearAll() {
    pair.clear();
    conversation.clear();
  }
  function pickExample(text: string) {
    conversation.setDraft(text);
    composer.current?.focus();
  }

  // "Get code" shows what each column sent last, or else what it would send now.
  const pending = conversation.pendingTurns();
  const snippetSources: SnippetSource[] = pair.columns.map((i) => {
    const sent = pair.runs[i]?.request ?? (i === 0 ? conversation.lastAnswerRequest() : undefined);
    const body = sent ?? requestFor(i, pending.length > 0 ? pending : [{ role: "user", content: "Hello!" }]);
    return { label: pair.compare ? `Column ${COLUMNS[i].label}` : "Request", body, sent: Boolean(sent), projectRef: projectFor(i) ?? "" };
  });

  return (
    <Tooltip.Provider delayDuration={120} skipDelayDuration={60}>
      <div className="flex h-[calc(100dvh-7rem)] min-h-[32rem] flex-col">
        <PageHeader
          title="Playground"
          actions={<PlaygroundToolbar projects={[...new Set(pair.columns.map(projectFor))].filter((p) => p !== undefined)} view={view} onView={setView} compare={pair.compare} onToggleCompare={toggleCompare} onGetCode={() => setCodeOpen(true)} onClear={clearAll} />}
        />
        <div className="-mt-2 flex min-h-0 flex-1 gap-4">
          <div className="flex min-w-0 flex-1 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs">
            <MessageList
              conversation={conversation}
              view={view}
              runs={pair.runs}
              comparison={pair.compare && <CompareColumns runs={pair.runs} settings={columns.settings} modelOf={modelOf} view={view} onKeep={pair.keep} />}
              onPickExample={pickExample}
            />
            <Composer
              ref={composer}
              draft={conversation.draft}
              onDraftChange={conversation.setDraft}
              hasMessages={conversation.messages.length > 0}
              onAdd={conversation.commitDraft}
              view={view}
              refused={columns.refused && pair.columns.some(columns.hasErrors)}
              busy={pair.busy}
              canRun={Boolean(projectRef)}
              onRun={run}
              onStop={pair.stop}
            />
          </div>
          <ParamsSidebar
            compare={pair.compare}
            editing={columns.editing}
            onEdit={columns.setEditing}
            hasErrors={columns.hasErrors}
            onCopyToOther={columns.copyEditedToOther}
            settings={columns.settings[columns.editing]}
            onChange={columns.changeEdited}
            errors={columns.fieldErrors(columns.editing, pair.runs[columns.editing]?.fieldErrors)}
            models={models}
          />
        </div>
      </div>
      {projectRef && <SnippetDialog open={codeOpen} onOpenChange={setCodeOpen} origin={origin} sources={snippetSources} />}
    </Tooltip.Provider>
  );
}
