import type { LlamaModel, Token } from "node-llama-cpp";
import type { TokenLogprob } from "@/lib/engine/serving/generate";

// `logprobs.content[i]` entries (vLLM): the token as text or `token_id:<id>`, its raw log-softmax
// floored at -9999, its UTF-8 bytes, and the most likely alternatives.

export const LOGPROB_FLOOR = -9999;

export interface LogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

// A token's text never changes for a loaded model: detokenize each id once, not once per use.
const tokenTexts = new WeakMap<LlamaModel, Map<number, string>>();

function tokenText(model: LlamaModel, token: number): string {
  let texts = tokenTexts.get(model);
  if (!texts) tokenTexts.set(model, (texts = new Map()));
  let text = texts.get(token);
  if (text === undefined) texts.set(token, (text = model.detokenize([token as Token], true)));
  return text;
}

export class LogprobFormatter {
  constructor(
    private readonly model: LlamaModel,
    private readonly asTokenIds: boolean,
  ) {}

  private describe(token: number, logprob: number) {
    const text = tokenText(this.model, token);
    return {
      token: this.asTokenIds ? `token_id:${token}` : text,
      logprob: Math.max(logprob, LOGPROB_FLOOR),
      bytes: [...Buffer.from(this.asTokenIds ? `token_id:${token}` : text, "utf8")],
    };
  }

  entry(token: number, logprob: number, top: readonly TokenLogprob[] = []): LogprobEntry {
    // The main entry's bytes are the token's own even in token-id form (vLLM's quirk, kept).
    const text = tokenText(this.model, token);
    return {
      ...this.describe(token, logprob),
      bytes: [...Buffer.from(text, "utf8")],
      top_logprobs: top.map((t) => this.describe(t.token, t.logprob)),
    };
  }
}
