// Test fixture: a random LoRA adapter for a real-layout model (real-layout-models.ts), in the GGUF form
// llama.cpp applies: general.architecture equal to the base's, general.type "adapter", adapter.type
// "lora", adapter.lora.alpha; for each adapted weight W (GGUF dims [in, out]) "<W>.lora_a" dims
// [in, rank] and "<W>.lora_b" dims [rank, out]. Unlike a fresh PEFT adapter (B = 0), B is random, so
// the adapter visibly changes the model's outputs.

import { randomNormal } from "../model/random-tensor";
import { Prng } from "../prng";
import { f32, str } from "../gguf/values";
import { writeGguf, type GgufTensorToWrite } from "../gguf/write-gguf";
import type { RealLayoutShape } from "./real-layout-shapes";
import { realLayoutTensors } from "./real-layout-models";

/** PEFT's "all-linear" targets, by their GGUF names. */
export const ALL_LINEAR = ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"];

export interface WriteRealLayoutLoraOptions {
  rank?: number;
  /** scale = alpha / rank; defaults to rank (scale 1). */
  alpha?: number;
  seed?: number;
  /** Weight kinds to adapt in every block. */
  targets?: readonly string[];
}

export function writeRealLayoutLora(path: string, shape: RealLayoutShape, options: WriteRealLayoutLoraOptions = {}): void {
  const { rank = 4, alpha = rank, seed = 1, targets = ALL_LINEAR } = options;
  const rng = new Prng(seed);
  // "blk.N.<kind>.weight" matrices (not the biases of the same kinds).
  const adapted = realLayoutTensors(shape).filter((t) => t.dims.length === 2 && targets.includes(t.name.split(".")[2] ?? ""));
  const tensors: GgufTensorToWrite[] = adapted.flatMap(({ name, dims: [inDim, outDim] }) => [
    // (A x) has elements ~N(0, 1); B (A x) adds ~N(0, 0.5²) to each output.
    { name: `${name}.lora_a`, dims: [inDim, rank], data: randomNormal(rng, inDim * rank, 1 / Math.sqrt(inDim)) },
    { name: `${name}.lora_b`, dims: [rank, outDim], data: randomNormal(rng, rank * outDim, 0.5 / Math.sqrt(rank)) },
  ]);
  writeGguf(
    path,
    { "general.architecture": str(shape.arch), "general.type": str("adapter"), "adapter.type": str("lora"), "adapter.lora.alpha": f32(alpha) },
    tensors,
  );
}
