import type { LlamaModel, Token } from "node-llama-cpp";
import type { TokenLogprob } from "@/lib/engine/serving/generate";
import type { LogprobEntry } from "./messages";

// A model's tokens as `logprobs.content[i]` entries (messages.ts): the token as text or
// `token_id:<id>`, its raw log-softmax floored at -9999, its UTF-8 bytes, and the alternatives.

export const LOGPROB_FLOOR = -9999;

// A token's text never changes for a loaded model: detokenize each id once, not once per use, and
// keep its two spellings (text, `token_id:<id>`) with their UTF-8 bytes. Entries share these arrays,
// which are only ever serialized.
interface TokenForms {
  text: string;
  textBytes: number[];
  id: string;
  idBytes: number[];
}
const tokenForms = new WeakMap<LlamaModel, Map<number, TokenForms>>();

function formsOf(model: LlamaModel, token: number): TokenForms {
  let forms = tokenForms.get(model);
  if (!forms) tokenForms.set(model, (forms = new Map()));
  let f = forms.get(token);
  if (!f) {
    const text = model.detokenize([token as Token], true);
    const id = `token_id:${token}`;
    forms.set(token, (f = { text, textBytes: [...Buffer.from(text, "utf8")], id, idBytes: [...Buffer.from(id, "utf8")] }));
  }
  return f;
}

export class LogprobFormatter {
  constructor(
    private readonly model: LlamaModel,
    private readonly asTokenIds: boolean,
  ) {}

  private describe(token: number, logprob: number) {
    const f = formsOf(this.model, token);
    return this.asTokenIds
      ? { token: f.id, logprob: Math.max(logprob, LOGPROB_FLOOR), bytes: f.idBytes }
      : { token: f.text, logprob: Math.max(logprob, LOGPROB_FLOOR), bytes: f.textBytes };
  }

  entry(token: number, logprob: number, top: readonly TokenLogprob[] = []): LogprobEntry {
    // The main entry's bytes are the token's own even in token-id form (vLLM's quirk, kept).
    const f = formsOf(this.model, token);
    return {
      token: this.asTokenIds ? f.id : f.text,
      logprob: Math.max(logprob, LOGPROB_FLOOR),
      bytes: f.textBytes,
      top_logprobs: top.map((t) => this.describe(t.token, t.logprob)),
    };
  }
}
