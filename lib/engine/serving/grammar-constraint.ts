// A GBNF grammar (or a JSON schema compiled to one) as a token mask for Anneal's own sampler. It
// drives llama.cpp's grammar engine through node-llama-cpp: a LlamaGrammarEvaluationState holds the
// parse state, and the binding behind LlamaSampler._canBeNextTokenForGrammarEvaluationState asks
// whether one token may come next. Those two bindings are internal to node-llama-cpp (pinned at
// 3.22.1), so they are reached in this file only and checked when a grammar is created.

import { LlamaGrammarEvaluationState, type Llama, type LlamaGrammar, type LlamaModel } from "node-llama-cpp";

interface GrammarBindings {
  canBeNextTokenForGrammarEvaluationState(state: unknown, token: number): boolean;
  acceptGrammarEvaluationStateToken(state: unknown, token: number): void;
}

/** A JSON schema (node-llama-cpp's converter lets integers take exponents: validate the
 *  result) or a GBNF grammar. */
export type GrammarSpec = { jsonSchema: object } | { gbnf: string };

export class GrammarConstraint {
  private constructor(
    private readonly bindings: GrammarBindings,
    private readonly state: unknown,
  ) {}

  static async create(model: LlamaModel, spec: GrammarSpec): Promise<GrammarConstraint> {
    const llama = model.llama;
    // node-llama-cpp types schemas as deep literal types; any JSON schema object is accepted at runtime.
    const grammar: LlamaGrammar =
      "jsonSchema" in spec
        ? await llama.createGrammarForJsonSchema(spec.jsonSchema as Parameters<Llama["createGrammarForJsonSchema"]>[0])
        : await llama.createGrammar({ grammar: spec.gbnf });
    const evaluation = new LlamaGrammarEvaluationState({ model, grammar }) as unknown as { _state?: unknown };
    const sampler = (llama as unknown as { _bindings?: { AddonSampler?: Partial<GrammarBindings> } })._bindings?.AddonSampler;
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
