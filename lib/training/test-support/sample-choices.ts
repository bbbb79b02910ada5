// Test fixture: samples n replies to one prompt with the training model (temperature sampling via
// the server's pickToken, no KV cache: the whole batch is re-run per token, fine at test sizes) and
// returns them as the OpenAI Choices a client would send back, with "token_id:<id>" logprobs.
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { Prng } from "@/lib/engine/prng";
import { pickToken } from "@/lib/engine/serving/sampler";
import { encodeChat, END_OF_TEXT, IM_END, type ChatMessage } from "@/lib/engine/tokenizer/chatml";
import type { Tokenizer } from "@/lib/engine/tokenizer/tokenizer";
import type { Choice } from "../trajectories/schemas";

export function sampleChoices(model: LlamaModel, tokenizer: Tokenizer, prompt: ChatMessage[], n: number, o: { maxTokens: number; temperature: number; rng: Prng }): Choice[] {
  const V = model.config.vocabSize;
  const stop = tokenizer.tokenId(IM_END)!;
  const promptIds = encodeChat(tokenizer, prompt, { addGenerationPrompt: true }).ids;
  const replies = Array.from({ length: n }, () => ({ tokens: [] as number[], logprobs: [] as number[], done: false }));
  for (let step = 0; step < o.maxTokens && replies.some((r) => !r.done); step++) {
    const T = promptIds.length + step;
    const tokens = new Int32Array(n * T).fill(tokenizer.tokenId(END_OF_TEXT)!);
    replies.forEach((r, i) => tokens.set([...promptIds, ...r.tokens], i * T));
    const last = Array.from({ length: n }, (_, i) => i * T + T - 1);
    const logits = model.logits({ tokens, targets: new Int32Array(n * T).fill(-1), batchSize: n, seqLen: T }, last);
    replies.forEach((r, i) => {
      if (r.done) return;
      const row = logits.subarray(i * V, (i + 1) * V);
      const token = pickToken(row, { temperature: o.temperature }, o.rng);
      if (token === stop) {
        r.done = true;
        return;
      }
      r.tokens.push(token);
      r.logprobs.push(logSoftmaxAt(row, token));
    });
  }
  return replies.map((r, index) => ({
    index,
    finish_reason: r.done ? "stop" : "length",
    message: { role: "assistant", content: tokenizer.decode(r.tokens) },
    logprobs: { content: r.tokens.map((id, k) => ({ token: `token_id:${id}`, logprob: r.logprobs[k] })) },
  }));
}

function logSoftmaxAt(logits: Float32Array, token: number): number {
  let max = -Infinity;
  for (const l of logits) max = Math.max(max, l);
  let sum = 0;
  for (const l of logits) sum += Math.exp(l - max);
  return logits[token] - max - Math.log(sum);
}
