// A compiled GBNF grammar (llama.createGrammar, or createGrammarForJsonSchema) as a token mask for
// Anneal's own sampler. It drives llama.cpp's grammar engine through node-llama-cpp: a
// LlamaGrammarEvaluationState holds the parse state, and the binding behind
// LlamaSampler._canBeNextTokenForGrammarEvaluationState asks whether one token may come next.
// Those two bindings are internal to node-llama-cpp (pinned at 3.22.1), so they are reached in
// this file only and checked when a constraint is created.

import { LlamaGrammarEvaluationState, type LlamaGrammar, type LlamaModel } from "node-llama-cpp";

interface GrammarBindings {
  canBeNextTokenForGrammarEvaluationState(state: unknown, token: number): boolean;
  acceptGrammarEvaluationStateToken(state: unknown, token: number): void;
}

export class GrammarConstraint {
  private constructor(
    private readonly bindings: GrammarBindings,
    private readonly state: unknown,
  ) {}

  /** A fresh parse state of a compiled grammar (one per generation; the grammar is shared). */
  static create(model: LlamaModel, grammar: LlamaGrammar): GrammarConstraint {
    const evaluation = new LlamaGrammarEvaluationState({ model, grammar }) as unknown as { _state?: unknown };
    const sampler = (model.llama as unknown as { _bindings?: { AddonSampler?: Partial<GrammarBindings> } })._bindings?.AddonSampler;
    if (!evaluation._state || !sampler?.canBeNextTokenForGrammarEvaluationState || !sampler.acceptGrammarEvaluationStateToken) {
      throw new Error("node-llama-cpp's grammar bindings changed: GrammarConstraint needs updating");
    }
    return new GrammarConstraint(sampler as GrammarBindings, evaluation._state);
  }

  /** Whether `token` may come next (end-of-generation tokens only once the grammar is complete). */
  readonly isAllowed = (token: number): boolean => this.bindings.canBeNextTokenForGrammarEvaluationState(this.state, token);

  /** Advances the parse state past a generated token. */
  accept(token: number): void {
    this.bindings.acceptGrammarEvaluationStateToken(this.state, token);
  }
}
