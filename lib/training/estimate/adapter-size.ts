import type { LlamaConfig } from "@/lib/engine/model/config";
import { LORA_TARGET_OF_MODULE, loraShapes, loraWeightName, type LoraModule } from "@/lib/engine/model/lora";

// A LoRA adapter's size on a base: each adapted matrix W[out, in] gets A [rank, in] and B [out, rank],
// rank·(in + out) parameters, in every layer. Stored as F32 (the GGUF adapter and PEFT's
// adapter_model.safetensors), so 4 bytes a parameter.

export const ADAPTER_BYTES_PER_PARAMETER = 4;

export interface AdaptedModule {
  module: LoraModule;
  /** W's input width (A's columns). */
  in: number;
  /** W's output width (B's rows). */
  out: number;
  /** rank·(in + out): one layer's adapter of this matrix. */
  parameters: number;
}

export interface AdapterSize {
  rank: number;
  layers: number;
  modules: AdaptedModule[];
  parameters: number;
  bytes: number;
}

export function adapterSize(config: LlamaConfig, lora: { rank: number; target_modules: readonly LoraModule[] }): AdapterSize {
  const modules = lora.target_modules.map((module): AdaptedModule => {
    // Every layer has the same widths: layer 0's shapes stand for all of them.
    const { a, b } = loraShapes(config, loraWeightName(0, LORA_TARGET_OF_MODULE[module]), lora.rank);
    const [inDim, out] = [a[1], b[0]];
    return { module, in: inDim, out, parameters: lora.rank * (inDim + out) };
  });
  const parameters = config.nLayers * modules.reduce((sum, m) => sum + m.parameters, 0);
  return { rank: lora.rank, layers: config.nLayers, modules, parameters, bytes: parameters * ADAPTER_BYTES_PER_PARAMETER };
}
