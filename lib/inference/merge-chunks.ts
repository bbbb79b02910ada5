// The chunks of a streamed chat completion merged into the chat.completion body the same request
// without `stream` gets, as the OpenAI SDKs' stream helpers do: how an upstream's stream is
// recorded (each choice's text, logprobs, token ids, finish and stop reason, and the usage).

interface StreamedChoice {
  index: number;
  delta?: { content?: string | null; reasoning?: string | null; reasoning_content?: string | null } | null;
  logprobs?: { content?: unknown[] | null } | null;
  finish_reason?: string | null;
  stop_reason?: unknown;
  token_ids?: number[] | null;
}

export interface StreamedChunk {
  id?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string | null;
  prompt_token_ids?: number[] | null;
  usage?: Record<string, unknown> | null;
  choices?: StreamedChoice[];
}

interface MergedChoice {
  content: string;
  reasoning: string | null;
  logprobs: unknown[] | null;
  tokenIds: number[] | null;
  finishReason: string | null;
  stopReason: unknown;
}

export class ChunkMerger {
  private head: Pick<StreamedChunk, "id" | "created" | "system_fingerprint" | "prompt_token_ids"> = {};
  private usage: Record<string, unknown> | null = null;
  private readonly choices = new Map<number, MergedChoice>();

  add(chunk: StreamedChunk): void {
    this.head.id ??= chunk.id;
    this.head.created ??= chunk.created;
    this.head.system_fingerprint ??= chunk.system_fingerprint;
    this.head.prompt_token_ids ??= chunk.prompt_token_ids;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      let merged = this.choices.get(choice.index);
      if (!merged) {
        merged = { content: "", reasoning: null, logprobs: null, tokenIds: null, finishReason: null, stopReason: null };
        this.choices.set(choice.index, merged);
      }
      merged.content += choice.delta?.content ?? "";
      const reasoning = choice.delta?.reasoning ?? choice.delta?.reasoning_content;
      if (reasoning) merged.reasoning = (merged.reasoning ?? "") + reasoning;
      if (choice.logprobs?.content) (merged.logprobs ??= []).push(...choice.logprobs.content);
      if (choice.token_ids) (merged.tokenIds ??= []).push(...choice.token_ids);
      if (choice.finish_reason) merged.finishReason = choice.finish_reason;
      if (choice.stop_reason !== undefined && choice.stop_reason !== null) merged.stopReason = choice.stop_reason;
    }
  }

  /** The merged body, under the model name given. */
  body(model: string): Record<string, unknown> {
    return {
      id: this.head.id ?? null,
      object: "chat.completion",
      created: this.head.created ?? null,
      model,
      choices: [...this.choices.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, c]) => ({
          index,
          message: { role: "assistant", content: c.content, reasoning: c.reasoning },
          logprobs: c.logprobs && { content: c.logprobs },
          finish_reason: c.finishReason,
          stop_reason: c.stopReason,
          token_ids: c.tokenIds,
        })),
      usage: this.usage,
      system_fingerprint: this.head.system_fingerprint ?? null,
      prompt_token_ids: this.head.prompt_token_ids ?? null,
    };
  }

  /** Usage as the upstream reported it (its usage chunk). */
  get reportedUsage(): { prompt_tokens?: number; completion_tokens?: number } {
    return (this.usage ?? {}) as { prompt_tokens?: number; completion_tokens?: number };
  }
}
