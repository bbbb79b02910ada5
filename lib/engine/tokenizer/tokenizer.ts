// Byte-level BPE tokenizer that produces exactly the ids llama.cpp produces for the same vocabulary
// (tokenizer.ggml.model = "gpt2", pre = "default"): special tokens are cut out first (longest first,
// when asked to parse them), the rest is pre-tokenized, each piece's UTF-8 bytes are spelled in
// GPT-2's byte alphabet and merged. Any UTF-8 text round-trips: every byte has a token.

import { applyMerges, type MergeTable } from "./bpe-merge";
import { alphabetToBytes, BYTE_TO_CHAR } from "./byte-alphabet";
import { pretokenize } from "./pretokenize";

/** The serialisable definition of a tokenizer. */
export interface TokenizerSpec {
  /** Token strings by id: the byte alphabet for normal tokens, literal text for special tokens. */
  tokens: string[];
  /** Merge rules by priority, "left right" in the byte alphabet (GGUF's tokenizer.ggml.merges). */
  merges: string[];
  /** The special (control) tokens' texts; each is also in `tokens`. */
  specials: string[];
}

export interface EncodeOptions {
  /** Turn special-token texts (e.g. "<|im_end|>") into their single ids, like llama.cpp's
   *  parse_special. Off by default so user text can never forge control tokens. */
  parseSpecials?: boolean;
}

const PIECE_CACHE_LIMIT = 1 << 16;

export class Tokenizer {
  readonly spec: TokenizerSpec;
  private readonly idOf = new Map<string, number>();
  private readonly byteIds: Int32Array;
  private readonly mergeTable: MergeTable;
  private readonly tokenBytes: Uint8Array[];
  private readonly specialsLongestFirst: string[];
  private readonly specialIds: Set<number>;
  private readonly pieceCache = new Map<string, number[]>();

  constructor(spec: TokenizerSpec) {
    this.spec = spec;
    spec.tokens.forEach((t, id) => {
      if (this.idOf.has(t)) throw new Error(`tokenizer: duplicate token ${JSON.stringify(t)}`);
      this.idOf.set(t, id);
    });
    this.byteIds = Int32Array.from(BYTE_TO_CHAR, (c) => this.requireId(c));
    const rules = new Map<number, { rank: number; merged: number }>();
    const n = spec.tokens.length;
    spec.merges.forEach((rule, rank) => {
      const [left, right] = splitMerge(rule);
      const key = this.requireId(left) * n + this.requireId(right);
      if (!rules.has(key)) rules.set(key, { rank, merged: this.requireId(left + right) });
    });
    this.mergeTable = { get: (l, r) => rules.get(l * n + r) };
    const specials = new Set(spec.specials);
    this.tokenBytes = spec.tokens.map((t) =>
      specials.has(t) ? new TextEncoder().encode(t) : (alphabetToBytes(t) ?? new TextEncoder().encode(t)),
    );
    this.specialsLongestFirst = [...specials].sort((a, b) => b.length - a.length);
    this.specialIds = new Set([...specials].map((t) => this.requireId(t)));
  }

  /** The JSON form is the spec itself. */
  toJSON(): TokenizerSpec {
    return this.spec;
  }

  static fromJSON(json: unknown): Tokenizer {
    const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
    const j = json as Partial<Record<keyof TokenizerSpec, unknown>> | null;
    if (!j || !isStrings(j.tokens) || !isStrings(j.merges) || !isStrings(j.specials)) {
      throw new Error("tokenizer JSON: expected {tokens, merges, specials} string arrays");
    }
    return new Tokenizer({ tokens: j.tokens, merges: j.merges, specials: j.specials });
  }

  get vocabSize(): number {
    return this.spec.tokens.length;
  }

  /** The id of a token string (byte alphabet) or special token text, if it exists. */
  tokenId(token: string): number | undefined {
    return this.idOf.get(token);
  }

  isSpecial(id: number): boolean {
    return this.specialIds.has(id);
  }

  encode(text: string, options: EncodeOptions = {}): number[] {
    const ids: number[] = [];
    const specials = options.parseSpecials ? this.specialsLongestFirst : [];
    for (const fragment of splitOnSpecials(toWellFormed(text), specials)) {
      if (fragment.special) ids.push(this.idOf.get(fragment.text)!);
      else for (const piece of pretokenize(fragment.text)) ids.push(...this.encodePiece(piece));
    }
    return ids;
  }

  /** Concatenated bytes of the tokens (special tokens as their text). */
  decodeBytes(ids: readonly number[]): Uint8Array {
    const parts = ids.map((id) => {
      const b = this.tokenBytes[id];
      if (b === undefined) throw new Error(`tokenizer: no token ${id}`);
      return b;
    });
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** Text of the tokens; invalid UTF-8 (e.g. a cut multi-byte character) becomes U+FFFD. */
  decode(ids: readonly number[]): string {
    return new TextDecoder().decode(this.decodeBytes(ids));
  }

  private encodePiece(piece: string): number[] {
    const cached = this.pieceCache.get(piece);
    if (cached) return cached;
    const bytes = new TextEncoder().encode(piece);
    const ids = applyMerges(Array.from(bytes, (b) => this.byteIds[b]), this.mergeTable);
    if (this.pieceCache.size >= PIECE_CACHE_LIMIT) this.pieceCache.clear();
    this.pieceCache.set(piece, ids);
    return ids;
  }

  private requireId(token: string): number {
    const id = this.idOf.get(token);
    if (id === undefined) throw new Error(`tokenizer: ${JSON.stringify(token)} is not in the vocabulary`);
    return id;
  }
}

export interface TextFragment {
  text: string;
  special: boolean;
}

/** Cuts special-token texts out of `text` as llama.cpp does: one special at a time, longest first,
 *  each splitting the plain fragments left by the previous ones. */
export function splitOnSpecials(text: string, specialsLongestFirst: readonly string[]): TextFragment[] {
  let fragments: TextFragment[] = [{ text, special: false }];
  for (const s of specialsLongestFirst) {
    if (!text.includes(s)) continue;
    const next: TextFragment[] = [];
    for (const f of fragments) {
      if (f.special || !f.text.includes(s)) {
        next.push(f);
        continue;
      }
      f.text.split(s).forEach((part, i) => {
        if (i > 0) next.push({ text: s, special: true });
        if (part) next.push({ text: part, special: false });
      });
    }
    fragments = next;
  }
  return fragments;
}

/** "a b" → ["a", "b"]; the separator is the first space after position 0, as llama.cpp reads it. */
function splitMerge(rule: string): [string, string] {
  const at = rule.indexOf(" ", 1);
  if (at < 0) throw new Error(`tokenizer: bad merge rule ${JSON.stringify(rule)}`);
  return [rule.slice(0, at), rule.slice(at + 1)];
}

/** Replaces lone UTF-16 surrogates with U+FFFD, as UTF-8 encoders (and llama.cpp's bindings) do. */
export const toWellFormed = (text: string): string =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
