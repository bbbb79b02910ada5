// LoRA (Hu et al., 2021) as Anneal trains it: a frozen projection W[out,in] gains a trainable
// low-rank update, y = x·Wᵀ + s·(drop(x)·Aᵀ)·Bᵀ with A [rank,in], B [out,rank], s = alpha/rank.
// This module is the vocabulary the API layer shares with the engine (targets, the Hugging Face
// names, defaults, validation) and the adapters' layout in a ParameterSet; the math is in
// layers/lora.ts. Adapters are keyed by the base weight's GGUF name ("blk.0.attn_q.weight") and
// shaped as PEFT and llama.cpp store them, so they go straight to writeLoraGguf and back; rows are in
// GGUF's order, which for `llama`'s q/k B is permuted from PEFT's (peft/qk-permutation.ts).
import { AdapterMismatchError } from "../peft/adapter-errors";
import { Prng } from "../prng";
import { weightShapes, type LlamaConfig } from "./config";
import type { ParameterSet, TensorShapes } from "./parameters";

/** One adapter of a weight W[out,in]: A [rank][in] and B [out][rank], row-major (PEFT's lora_A and
 *  lora_B; GGUF's `.lora_a` dims [in, rank] and `.lora_b` dims [rank, out] are the same bytes). */
export interface LoraAdapter {
  a: Float32Array;
  b: Float32Array;
  rank: number;
}

/** The projections an adapter can sit on, by their GGUF weight suffix (blk.N.<target>.weight). */
export const LORA_TARGETS = ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

/** Hugging Face / PEFT module name (`target_modules`) → the GGUF weight suffix it adapts. */
export const LORA_TARGET_OF_MODULE = {
  q_proj: "attn_q",
  k_proj: "attn_k",
  v_proj: "attn_v",
  o_proj: "attn_output",
  gate_proj: "ffn_gate",
  up_proj: "ffn_up",
  down_proj: "ffn_down",
} as const satisfies Record<string, LoraTarget>;
export type LoraModule = keyof typeof LORA_TARGET_OF_MODULE;

export interface LoraConfig {
  rank: number;
  /** The update is scaled by alpha/rank (llama.cpp's `adapter.lora.alpha`). */
  alpha: number;
  /** Dropout on each adapter's input while training, 0..MAX_LORA_DROPOUT. */
  dropout: number;
  targets: readonly LoraTarget[];
}

export const MAX_LORA_DROPOUT = 0.5;

/** Published practice: rank 16, alpha 32 (s = 2), every attention and MLP projection, no dropout. */
export const DEFAULT_LORA_CONFIG: Readonly<LoraConfig> = Object.freeze({ rank: 16, alpha: 32, dropout: 0, targets: LORA_TARGETS });

export const loraScale = (lora: LoraConfig): number => lora.alpha / lora.rank;

export function validateLoraConfig(lora: LoraConfig): void {
  const problems = [
    !(Number.isInteger(lora.rank) && lora.rank > 0) && "rank must be a positive integer",
    // llama.cpp reads alpha 0 as "no scaling": only a positive alpha means alpha/rank there too.
    !(Number.isFinite(lora.alpha) && lora.alpha > 0) && "alpha must be positive",
    !(lora.dropout >= 0 && lora.dropout <= MAX_LORA_DROPOUT) && `dropout must be within 0..${MAX_LORA_DROPOUT}`,
    lora.targets.length === 0 && "targets must name at least one projection",
    lora.targets.some((t) => !LORA_TARGETS.includes(t)) && `targets must be among ${LORA_TARGETS.join(", ")}`,
    new Set(lora.targets).size !== lora.targets.length && "targets must not repeat",
  ].filter(Boolean);
  if (problems.length) throw new Error(`invalid LoraConfig: ${problems.join("; ")}`);
}

/** The GGUF tensor names of an adapter's halves: "<weight>.lora_a" and "<weight>.lora_b". */
export const LORA_A = ".lora_a";
export const LORA_B = ".lora_b";

export const loraWeightName = (layer: number, target: LoraTarget): string => `blk.${layer}.${target}.weight`;

/** A [rank,in] and B [out,rank] for a weight W[out,in] of this model. */
export function loraShapes(config: LlamaConfig, weight: string, rank: number): { a: [number, number]; b: [number, number] } {
  const shape = weightShapes(config)[weight];
  if (shape?.length !== 2) throw new AdapterMismatchError(`${weight} is not a projection of this base (${config.nLayers} layers)`);
  const [out, inDim] = shape;
  return { a: [rank, inDim], b: [out, rank] };
}

/** Every (layer, target) that has an adapter, block by block, targets in LORA_TARGETS order. */
export function loraSites(config: LlamaConfig, lora: LoraConfig): { layer: number; target: LoraTarget; weight: string }[] {
  const targets = LORA_TARGETS.filter((t) => lora.targets.includes(t));
  return Array.from({ length: config.nLayers }, (_, layer) => targets.map((target) => ({ layer, target, weight: loraWeightName(layer, target) }))).flat();
}

/** The adapters as a ParameterSet lays them out: "<weight>.lora_a" then "<weight>.lora_b" per site. */
export function loraTensorShapes(config: LlamaConfig, lora: LoraConfig): TensorShapes {
  const shapes: TensorShapes = {};
  for (const { weight } of loraSites(config, lora)) {
    const { a, b } = loraShapes(config, weight, lora.rank);
    shapes[weight + LORA_A] = a;
    shapes[weight + LORA_B] = b;
  }
  return shapes;
}

/** Views of the adapters held in `params` (no copy), keyed by base weight: writeLoraGguf's input. */
export function loraAdapterViews(params: ParameterSet, config: LlamaConfig, lora: LoraConfig): Record<string, LoraAdapter> {
  return Object.fromEntries(
    loraSites(config, lora).map(({ weight }) => [weight, { a: params.value(weight + LORA_A), b: params.value(weight + LORA_B), rank: lora.rank }]),
  );
}

/**
 * PEFT's initialisation: A ~ kaiming-uniform(a = √5) = U(−1/√in, 1/√in), B = 0, so the adapted
 * model starts exactly at its base. Each A draws from its own stream (seed, layer, target), so
 * choosing more targets does not change the others' initial values.
 */
export function initLoraAdapters(params: ParameterSet, config: LlamaConfig, lora: LoraConfig, seed: number): void {
  for (const { layer, target, weight } of loraSites(config, lora)) {
    const a = params.value(weight + LORA_A);
    const bound = 1 / Math.sqrt(loraShapes(config, weight, lora.rank).a[1]);
    const prng = new Prng(seed, layer, LORA_TARGETS.indexOf(target));
    for (let i = 0; i < a.length; i++) a[i] = (2 * prng.next() - 1) * bound;
    params.value(weight + LORA_B).fill(0);
  }
}

/** Copies a checkpoint's adapters in: exactly the configured sites, each of the configured rank. */
export function loadLoraAdapters(params: ParameterSet, config: LlamaConfig, lora: LoraConfig, adapters: Record<string, LoraAdapter>): void {
  const sites = loraSites(config, lora).map((s) => s.weight);
  const extra = Object.keys(adapters).filter((w) => !sites.includes(w));
  if (extra.length) throw new Error(`LoRA adapters for projections the config does not target: ${extra.join(", ")}`);
  for (const weight of sites) {
    const adapter = adapters[weight];
    if (!adapter) throw new Error(`missing LoRA adapter for ${weight}`);
    if (adapter.rank !== lora.rank) throw new Error(`LoRA adapter of ${weight} has rank ${adapter.rank}, expected ${lora.rank}`);
  }
  params.load(Object.fromEntries(sites.flatMap((w) => [[w + LORA_A, adapters[w].a], [w + LORA_B, adapters[w].b]])));
}

/**
 * The dropout seed of one forward pass of a job: distinct per (seed, step[, micro-batch]) and the
 * same on every run, so a resumed job draws the masks the interrupted one drew.
 */
export function dropoutSeedFor(seed: number, ...call: number[]): number {
  return new Prng(seed, ...call).uint32();
}
