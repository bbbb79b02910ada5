// Short dialogue: greetings, thanks, farewells, and remembering a name across turns. Replies are
// free-form, so checks accept any reply with the right intent. The curriculum grades by how far
// back the remembered fact lies.

import type { ChatMessage } from "../../tokenizer/chatml";
import type { Prng } from "../../prng";
import type { Example, Level } from "../example";
import { COLORS, NAMES } from "./words";

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

function exchange(rng: Prng): Example {
  const e = rng.pick(EXCHANGES);
  return {
    family: "dialogue",
    messages: [{ role: "user", content: rng.pick(e.prompts) }],
    answer: e.answer,
    check: (output) => e.accepts.test(output.trim()),
  };
}

export function dialogueExample(rng: Prng): Example {
  return rng.int(0, 2) === 0 ? rememberName(rng) : exchange(rng);
}

function rememberName(rng: Prng): Example {
  const name = rng.pick(NAMES);
  const messages: ChatMessage[] = [
    { role: "user", content: `My name is ${name}.` },
    { role: "assistant", content: `Nice to meet you, ${name}!` },
    { role: "user", content: "What is my name?" },
  ];
  return { family: "dialogue", messages, answer: `Your name is ${name}.`, check: namesOnly(name) };
}

/** A fact told at the start, two to five small-talk exchanges, then the question about it. */
function rememberAcrossTurns(rng: Prng): Example {
  const name = rng.pick(NAMES);
  const color = rng.pick(COLORS);
  const messages: ChatMessage[] = [
    { role: "user", content: `My name is ${name} and my favourite colour is ${color}.` },
    { role: "assistant", content: `Nice to meet you, ${name}!` },
  ];
  for (let i = rng.int(2, 5); i > 0; i--) {
    const e = rng.pick(EXCHANGES.slice(1));
    messages.push({ role: "user", content: rng.pick(e.prompts) }, { role: "assistant", content: e.answer });
  }
  if (rng.int(0, 1) === 0) {
    messages.push({ role: "user", content: "What is my name?" });
    return { family: "dialogue", messages, answer: `Your name is ${name}.`, check: namesOnly(name) };
  }
  messages.push({ role: "user", content: "What is my favourite colour?" });
  return {
    family: "dialogue",
    messages,
    answer: `Your favourite colour is ${color}.`,
    check: (output) => new RegExp(`\\b${color}\\b`, "i").test(output) && !COLORS.some((c) => c !== color && new RegExp(`\\b${c}\\b`, "i").test(output)),
  };
}

const namesOnly = (name: string) => (output: string) =>
  new RegExp(`\\b${name}\\b`).test(output) && !NAMES.some((n) => n !== name && output.includes(n));

export const DIALOGUE_LEVELS: Level[] = [
  { describe: "greetings, thanks, farewells", generate: exchange },
  { describe: "a name told one turn earlier (version 1's mix)", generate: dialogueExample },
  { describe: "a name or colour told two to five exchanges earlier", generate: rememberAcrossTurns },
];
