// Short dialogue: greetings, thanks, farewells, and remembering a name across turns. Replies are
// free-form, so checks accept any reply with the right intent.

import type { ChatMessage } from "../../tokenizer/chatml";
import type { Prng } from "../../prng";
import type { Example } from "../example";
import { NAMES } from "./words";

interface Exchange {
  prompts: string[];
  answer: string;
  accepts: RegExp;
}

const EXCHANGES: Exchange[] = [
  { prompts: ["Hi!", "Hello!", "Hey there.", "Good morning!"], answer: "Hello! How can I help?", accepts: /^(hello|hi|hey|good morning)\b/i },
  { prompts: ["Thanks!", "Thank you.", "Thanks a lot!"], answer: "You're welcome!", accepts: /welcome|no problem|glad/i },
  { prompts: ["Bye!", "Goodbye.", "See you later!"], answer: "Goodbye!", accepts: /\b(good)?bye\b|see you/i },
  { prompts: ["How are you?", "How are you doing?"], answer: "I'm fine, thanks!", accepts: /\b(fine|good|well|great)\b/i },
];

export function dialogueExample(rng: Prng): Example {
  if (rng.int(0, 2) === 0) return rememberName(rng);
  const e = rng.pick(EXCHANGES);
  return {
    family: "dialogue",
    messages: [{ role: "user", content: rng.pick(e.prompts) }],
    answer: e.answer,
    check: (output) => e.accepts.test(output.trim()),
  };
}

function rememberName(rng: Prng): Example {
  const name = rng.pick(NAMES);
  const messages: ChatMessage[] = [
    { role: "user", content: `My name is ${name}.` },
    { role: "assistant", content: `Nice to meet you, ${name}!` },
    { role: "user", content: "What is my name?" },
  ];
  return {
    family: "dialogue",
    messages,
    answer: `Your name is ${name}.`,
    check: (output) => new RegExp(`\\b${name}\\b`).test(output) && !NAMES.some((n) => n !== name && output.includes(n)),
  };
}
