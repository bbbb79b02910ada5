"use client";

import { useCallback, useState } from "react";
import type { ChatCompletionBody } from "@/components/inference/queries";
import type { Turn } from "@/components/playground/run-settings";
import type { ChatRun } from "@/components/playground/use-chat-run";

// The conversation a run sends: the system prompt, the user and assistant turns (all editable),
// and the draft in the composer, which joins them as a user turn when it is added or run.

export interface Message extends Turn {
  id: string;
  /** The run that wrote this answer (logprobs, usage, latency), while its text is unedited. */
  run?: ChatRun;
}

let nextId = 0;
const newId = () => `m${++nextId}`;

/** The turns a request carries: empty user turns are left out, an empty answer stays. */
const toTurns = (list: Message[]): Turn[] => list.filter((m) => m.content.trim() || m.role === "assistant").map(({ role, content }) => ({ role, content }));

export function useConversation() {
  const [system, setSystem] = useState("");
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState("");

  /** Adds the draft (if any) as a user turn; answers the turns of the conversation it makes. */
  function commitDraft(): Turn[] {
    if (!draft.trim()) return toTurns(messages);
    const list: Message[] = [...messages, { id: newId(), role: "user", content: draft }];
    setMessages(list);
    setDraft("");
    return toTurns(list);
  }

  const appendAnswer = useCallback((run: ChatRun) => {
    setMessages((list) => [...list, { id: newId(), role: "assistant", content: run.text, run }]);
  }, []);

  const replace = (next: Message) => setMessages((list) => list.map((m) => (m.id === next.id ? next : m)));
  const remove = (id: string) => setMessages((list) => list.filter((m) => m.id !== id));
  function clear() {
    setMessages([]);
    setDraft("");
  }

  /** The turns a run would send now, the draft included (what "Get code" shows before any run). */
  const pendingTurns = (): Turn[] => [...toTurns(messages), ...(draft.trim() ? [{ role: "user" as const, content: draft }] : [])];

  /** The request that wrote the newest answer still carrying its run. */
  const lastAnswerRequest = (): ChatCompletionBody | undefined => messages.findLast((m) => m.run)?.run?.request;

  return { system, setSystem, messages, draft, setDraft, commitDraft, appendAnswer, replace, remove, clear, pendingTurns, lastAnswerRequest };
}

export type Conversation = ReturnType<typeof useConversation>;
