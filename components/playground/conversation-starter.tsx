"use client";

import { Kbd, modifierKey } from "@/components/playground/kbd";

// What an empty conversation shows: how to run, and a few prompts the tiny model answers.

const EXAMPLES = ["What is 12 + 7?", "Reverse the word: river", "Uppercase: blue sky", "My name is Ada."];

export function ConversationStarter({ onPick }: { onPick: (text: string) => void }) {
  return (
    <div className="px-3 py-8 text-center">
      <p className="text-sm font-medium text-zinc-800">Start a conversation</p>
      <p className="mt-1 text-sm text-zinc-500">
        Type a message below and press <Kbd>{modifierKey()}</Kbd> <Kbd>Enter</Kbd>. The shipped tiny-chat models answer these:
      </p>
      <div className="mt-3 flex flex-wrap justify-center gap-1.5">
        {EXAMPLES.map((text) => (
          <button key={text} type="button" onClick={() => onPick(text)} className="rounded-full border border-zinc-200 bg-zinc-50 px-3 py-1 text-[13px] text-zinc-700 hover:border-brand-300 hover:bg-brand-50">
            {text}
          </button>
        ))}
      </div>
    </div>
  );
}
