// LoRA adapters as GGUF files that llama.cpp applies to a base model at context creation:
// W' = W + scale·(alpha/rank)·B·A. For a weight W[out][in], A is [rank][in] (GGUF dims [in, rank])
// and B is [out][rank] (GGUF dims [rank, out]), stored as "<weight name>.lora_a" / ".lora_b".
// general.architecture is the base's: llama.cpp refuses an adapter of another architecture.

import { archOf, type LlamaConfig } from "../model/config";
import { LORA_A, LORA_B, loraShapes, type LoraAdapter } from "../model/lora";
import { ggufDims } from "./llama-gguf";
import { openGguf } from "./read-gguf";
import { f32, numberValue, str, type GgufMetadata } from "./values";
import { writeGguf } from "./write-gguf";

export interface LoraGgufContents {
  /** Keyed by the base weight's name, e.g. "blk.0.attn_q.weight". */
  adapters: Record<string, LoraAdapter>;
  alpha: number;
  metadata: GgufMetadata;
}

export interface WriteLoraGgufOptions {
  config: LlamaConfig;
  adapters: Record<string, LoraAdapter>;
  alpha: number;
  metadata?: GgufMetadata;
}

export function writeLoraGguf(path: string, options: WriteLoraGgufOptions): void {
  const tensors = Object.entries(options.adapters).flatMap(([weight, { a, b, rank }]) => {
    const shapes = loraShapes(options.config, weight, rank);
    return [
      { name: weight + LORA_A, dims: ggufDims(shapes.a), data: a },
      { name: weight + LORA_B, dims: ggufDims(shapes.b), data: b },
    ];
  });
  writeGguf(
    path,
    {
      "general.architecture": str(archOf(options.config)),
      "general.type": str("adapter"),
      "adapter.type": str("lora"),
      "adapter.lora.alpha": f32(options.alpha),
      ...options.metadata,
    },
    tensors,
  );
}

export function readLoraGguf(path: string, config: LlamaConfig): LoraGgufContents {
  const file = openGguf(path);
  try {
    const m = file.metadata;
    if (m["general.type"]?.value !== "adapter" || m["adapter.type"]?.value !== "lora") throw new Error(`${path}: not a LoRA adapter`);
    const arch = m["general.architecture"]?.value;
    if (arch !== archOf(config)) throw new Error(`${path}: a LoRA adapter of a ${String(arch)} model, not of this ${archOf(config)} base`);
    const adapters: Record<string, LoraAdapter> = {};
    for (const t of file.tensors) {
      if (!t.name.endsWith(LORA_A)) continue;
      const weight = t.name.slice(0, -LORA_A.length);
      const rank = t.dims[1];
      const shapes = loraShapes(config, weight, rank);
      const bDims = file.tensors.find((x) => x.name === weight + LORA_B)?.dims;
      if (t.dims.join() !== ggufDims(shapes.a).join() || bDims?.join() !== ggufDims(shapes.b).join()) {
        throw new Error(`${path}: adapter of ${weight} has the wrong shape`);
      }
      adapters[weight] = { a: file.readTensor(t.name), b: file.readTensor(weight + LORA_B), rank };
    }
    return { adapters, alpha: numberValue(m, "adapter.lora.alpha"), metadata: m };
  } finally {
    file.close();
  }
}
