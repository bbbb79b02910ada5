// LoRA adapters as GGUF files that llama.cpp applies to a base model at context creation:
// W' = W + scale·(alpha/rank)·B·A. For a weight W[out][in], A is [rank][in] (GGUF dims [in, rank])
// and B is [out][rank] (GGUF dims [rank, out]), stored as "<weight name>.lora_a" / ".lora_b".
// general.architecture is the base's: llama.cpp refuses an adapter of another architecture.

import { archOf, type LlamaConfig } from "../model/config";
import { LORA_A, LORA_B, loraShapes, type LoraAdapter } from "../model/lora";
import { AdapterMismatchError, MalformedAdapterError } from "../peft/adapter-errors";
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

/** Reads a LoRA GGUF written for `config`'s base. A file that is not a LoRA adapter throws
 *  MalformedAdapterError, an adapter of another architecture or shape AdapterMismatchError; messages
 *  never name the path (they can reach a client that uploaded the file). */
export function readLoraGguf(path: string, config: LlamaConfig): LoraGgufContents {
  const file = openGguf(path);
  try {
    const m = file.metadata;
    if (m["general.type"]?.value !== "adapter" || m["adapter.type"]?.value !== "lora") throw new MalformedAdapterError("the GGUF is not a LoRA adapter (general.type, adapter.type)");
    const alpha = m["adapter.lora.alpha"]?.value;
    if (typeof alpha !== "number" || !(alpha > 0)) throw new MalformedAdapterError("the LoRA GGUF has no positive adapter.lora.alpha");
    const arch = m["general.architecture"]?.value;
    if (arch !== archOf(config)) throw new AdapterMismatchError(`a LoRA adapter of a ${String(arch)} model, not of this ${archOf(config)} base`);
    const adapters: Record<string, LoraAdapter> = {};
    for (const t of file.tensors) {
      const weight = t.name.replace(/\.lora_[ab]$/, "");
      if (weight === t.name) throw new AdapterMismatchError(`tensor ${t.name} is not a LoRA half (<weight>${LORA_A} or ${LORA_B})`);
      if (!t.name.endsWith(LORA_A)) continue;
      const rank = t.dims[1];
      const shapes = loraShapes(config, weight, rank);
      const bDims = file.tensors.find((x) => x.name === weight + LORA_B)?.dims;
      if (!bDims) throw new AdapterMismatchError(`${weight} has ${LORA_A} without ${LORA_B}`);
      if (t.dims.join() !== ggufDims(shapes.a).join() || bDims.join() !== ggufDims(shapes.b).join()) {
        throw new AdapterMismatchError(`the adapter of ${weight} has dims [${t.dims}] and [${bDims}]; this base needs [${ggufDims(shapes.a)}] and [${ggufDims(shapes.b)}]`);
      }
      adapters[weight] = { a: file.readTensor(t.name), b: file.readTensor(weight + LORA_B), rank };
    }
    const orphan = file.tensors.find((t) => t.name.endsWith(LORA_B) && !adapters[t.name.slice(0, -LORA_B.length)]);
    if (orphan) throw new AdapterMismatchError(`${orphan.name} has no ${LORA_A}`);
    return { adapters, alpha: numberValue(m, "adapter.lora.alpha"), metadata: m };
  } finally {
    file.close();
  }
}
