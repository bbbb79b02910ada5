"use client";

import { MessageView } from "@/components/calls/conversation";
import { Kbd } from "@/components/playground/kbd";
import { Badge } from "@/components/ui/badge";
import type { ItemWithCall } from "@/components/annotate/queries";
import type { PreferenceInput } from "@/lib/client/annotation-form";

// The answers of a call made with n >= 2, side by side, numbered as the digit keys pick them
// (choice 1 is index 0 of the call's `choices`), marked with the preference being given.

export type AnswerMessage = Record<string, unknown>;

/** Each answer's message, in the order of the recorded `choices` (what preference indexes name). */
export function answerChoices(call: ItemWithCall["call"]): AnswerMessage[] {
  const choices = Array.isArray(call.response?.choices) ? (call.response.choices as { message?: AnswerMessage }[]) : [];
  return choices.map((choice) => choice.message ?? { role: "assistant", content: null });
}

export function AnswerChoices({ choices, preference }: { choices: AnswerMessage[]; preference?: PreferenceInput }) {
  const columns = choices.length === 2 ? "sm:grid-cols-2" : "sm:grid-cols-2 xl:grid-cols-3";
  return (
    <div className={`grid gap-px bg-zinc-100 ${columns}`} data-testid="answer-choices">
      {choices.map((message, i) => {
        const mark = preference?.preferred === i ? "preferred" : preference?.over === i ? "over" : undefined;
        return (
          <div key={i} data-testid="answer" data-choice={i} data-mark={mark} className={`min-w-0 bg-white ${mark === "preferred" ? "ring-2 ring-brand-400 ring-inset" : ""}`}>
            <div className="flex items-center gap-2 px-4 pt-3 text-xs font-medium text-zinc-600">
              {i < 9 && <Kbd>{i + 1}</Kbd>}
              Choice {i + 1}
              {mark && <Badge tone={mark === "preferred" ? "brand" : "neutral"}>{mark}</Badge>}
            </div>
            <MessageView message={message} label="answer" />
          </div>
        );
      })}
    </div>
  );
}
