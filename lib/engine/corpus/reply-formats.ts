// Replies in a format the conversation asks for: a tag pair (`<result>…</result>`), a prefix
// (`Result: …`) or a pair of brackets, asked for by the system message or, in a conversation with
// earlier exchanges, only shown by them. A base pretrained on some of these learns to answer after
// a wrapper instead of only right after the assistant's turn opens, so a fine-tuning job that asks for
// one (bench:learn's `<answer>…</answer>`) teaches where the answer goes, not the answer again.
// Tag names come from a list and from random letters, so the closing tag is copied, not remembered;
// `answer` itself is never drawn: the format bench:learn's SFT task teaches stays the job's to teach.

import type { ChatMessage } from "../tokenizer/chatml";
import type { Prng } from "../prng";
import type { Example } from "./example";

interface ReplyFormat {
  open: string;
  close: string;
  /** The instruction a system message gives. */
  asked: string;
}

const TAG_NAMES = ["result", "final", "output", "reply", "value", "solution", "response", "res", "out", "r", "a", "x", "ans", "sol", "final_result", "val", "resp", "o", "item", "text", "data", "return", "say", "end"];
const PREFIXES = ["Result: ", "Final: ", "Output: ", "=> ", "A: ", "Reply: "];
const BRACKETS: readonly [string, string][] = [["[", "]"], ["(", ")"], ["**", "**"], ["{", "}"], ["`", "`"], ["<<", ">>"], ["|", "|"]];
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** Left to the jobs that teach it (bench:learn's SFT task). */
const NEVER_DRAWN = "answer";

function tagName(rng: Prng): string {
  if (rng.next() < 0.5) return rng.pick(TAG_NAMES);
  let name = "";
  for (let n = rng.int(2, 9); n > 0; n--) name += LETTERS[rng.int(0, LETTERS.length - 1)];
  return name.includes(NEVER_DRAWN) ? "result" : name;
}

function drawFormat(rng: Prng): ReplyFormat {
  const kind = rng.next();
  if (kind < 0.6) {
    const t = tagName(rng);
    const asked = rng.pick([`Put your reply between <${t}> and </${t}>.`, `Wrap every reply in <${t}></${t}> tags.`, `Reply inside <${t}> tags.`, `Format: <${t}>reply</${t}>`]);
    return { open: `<${t}>`, close: `</${t}>`, asked };
  }
  if (kind < 0.75) {
    const prefix = rng.pick(PREFIXES);
    return { open: prefix, close: "", asked: `Start each reply with "${prefix.trim()}".` };
  }
  const [open, close] = rng.pick(BRACKETS);
  return { open, close, asked: `Put each reply between ${open} and ${close}.` };
}

/** The example with every assistant reply in a drawn format, asked for by the system message (its
 *  own first, if it had one) or, half of the time when earlier exchanges show it, not asked at all.
 *  Its checker wants the format around a reply the task's own checker accepts. */
export function withReplyFormat(rng: Prng, example: Example): Example {
  const format = drawFormat(rng);
  const wrap = (m: ChatMessage): ChatMessage => (m.role === "assistant" ? { ...m, content: `${format.open}${m.content}${format.close}` } : m);
  const shown = example.messages.some((m) => m.role === "assistant");
  const conversation = example.messages.map(wrap);
  const system = conversation.find((m) => m.role === "system");
  const messages: ChatMessage[] =
    shown && rng.next() < 0.5
      ? conversation
      : [{ role: "system", content: system ? `${system.content} ${format.asked}` : format.asked }, ...conversation.filter((m) => m !== system)];
  const check = (output: string): boolean => {
    const reply = output.trim();
    return reply.startsWith(format.open) && reply.endsWith(format.close) && example.check(reply.slice(format.open.length, reply.length - format.close.length));
  };
  return { ...example, messages, answer: `${format.open}${example.answer}${format.close}`, check };
}
