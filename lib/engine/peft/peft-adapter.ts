// A LoRA adapter as a Hugging Face PEFT directory, zipped: what PEFT's `PeftModel.from_pretrained` and
// vLLM's `--lora-modules` load. adapter_config.json names the method and its hyperparameters;
// adapter_model.safetensors holds, for each adapted projection of each decoder layer,
//   base_model.model.model.layers.{i}.{self_attn|mlp}.{module}.lora_A.weight  [r, in]
//   base_model.model.model.layers.{i}.{self_attn|mlp}.{module}.lora_B.weight  [out, r]
// (PEFT's save_pretrained drops the adapter's name: no ".default"). These are the bytes of GGUF's
// "<weight>.lora_a" / ".lora_b" (LoraAdapter's A [rank][in], B [out][rank]), except `llama`'s q/k B
// rows, which GGUF stores permuted for llama.cpp's RoPE (qk-permutation.ts).

import { archOf, type LlamaConfig } from "../model/config";
import { LORA_TARGET_OF_MODULE, loraShapes, loraWeightName, type LoraAdapter, type LoraModule, type LoraTarget } from "../model/lora";
import { AdapterMismatchError, MalformedAdapterError } from "./adapter-errors";
import { permutesQkRows, permuteQkRows, qkHeads, unpermuteQkRows } from "./qk-permutation";
import { readSafetensors, writeSafetensors, type SafetensorsTensor } from "./safetensors";
import { readZip, writeZip, type ZipEntry } from "./zip";

export const ADAPTER_CONFIG = "adapter_config.json";
export const ADAPTER_WEIGHTS = "adapter_model.safetensors";

/** adapter_config.json as Anneal writes it: the fields PEFT and vLLM need, nothing else. */
export interface PeftAdapterConfig {
  peft_type: "LORA";
  task_type: "CAUSAL_LM";
  /** The base's Hugging Face name: what PEFT loads the base by. */
  base_model_name_or_path: string;
  r: number;
  lora_alpha: number;
  lora_dropout: number;
  /** Hugging Face module names (q_proj … down_proj). */
  target_modules: LoraModule[];
  bias: "none";
  fan_in_fan_out: false;
}

const MODULE_OF_TARGET = Object.fromEntries(Object.entries(LORA_TARGET_OF_MODULE).map(([m, t]) => [t, m])) as Record<LoraTarget, LoraModule>;
/** Where each module sits in a Hugging Face decoder layer. */
const PARENT: Record<LoraModule, "self_attn" | "mlp"> = {
  q_proj: "self_attn", k_proj: "self_attn", v_proj: "self_attn", o_proj: "self_attn", gate_proj: "mlp", up_proj: "mlp", down_proj: "mlp",
};
const WEIGHT_NAME = /^blk\.(\d+)\.(\w+)\.weight$/;
const PEFT_KEY = /^base_model\.model\.model\.layers\.(\d+)\.(self_attn|mlp)\.(\w+)\.lora_(A|B)(?:\.default)?\.weight$/;

export const peftKey = (layer: number, module: LoraModule, half: "A" | "B") => `base_model.model.model.layers.${layer}.${PARENT[module]}.${module}.lora_${half}.weight`;


function siteOf(weight: string): { layer: number; target: LoraTarget } {
  const match = WEIGHT_NAME.exec(weight);
  const target = match?.[2] as LoraTarget | undefined;
  if (!match || !target || !(target in MODULE_OF_TARGET)) throw new AdapterMismatchError(`${weight} is not a projection an adapter can sit on`);
  return { layer: Number(match[1]), target };
}

export interface PeftExportOptions {
  config: LlamaConfig;
  /** Keyed by GGUF weight name, as readLoraGguf gives them. */
  adapters: Record<string, LoraAdapter>;
  alpha: number;
  dropout: number;
  baseModelName: string;
}

/** The adapter_config.json and tensors of a GGUF-layout adapter (B of `llama` q/k unpermuted). */
export function toPeft(options: PeftExportOptions): { adapterConfig: PeftAdapterConfig; tensors: Record<string, SafetensorsTensor> } {
  const { config, adapters } = options;
  const ranks = new Set(Object.values(adapters).map((a) => a.rank));
  if (ranks.size !== 1) throw new AdapterMismatchError(`an adapter has one rank; this one has ${ranks.size === 0 ? "no projections" : `ranks ${[...ranks].join(", ")}`}`);
  const [rank] = ranks;
  const tensors: Record<string, SafetensorsTensor> = {};
  const targets = new Set<LoraTarget>();
  for (const [weight, { a, b }] of Object.entries(adapters)) {
    const { layer, target } = siteOf(weight);
    const shapes = loraShapes(config, weight, rank);
    targets.add(target);
    const module = MODULE_OF_TARGET[target];
    tensors[peftKey(layer, module, "A")] = { shape: shapes.a, data: a };
    tensors[peftKey(layer, module, "B")] = { shape: shapes.b, data: permutesQkRows(archOf(config), target) ? unpermuteQkRows(b, qkHeads(config, target), rank) : b };
  }
  const adapterConfig: PeftAdapterConfig = {
    peft_type: "LORA",
    task_type: "CAUSAL_LM",
    base_model_name_or_path: options.baseModelName,
    r: rank,
    lora_alpha: options.alpha,
    lora_dropout: options.dropout,
    target_modules: (Object.keys(LORA_TARGET_OF_MODULE) as LoraModule[]).filter((m) => targets.has(LORA_TARGET_OF_MODULE[m])),
    bias: "none",
    fan_in_fan_out: false,
  };
  return { adapterConfig, tensors };
}

/** The PEFT directory's two files, by name: written to a folder (what vLLM loads) or zipped. */
export function peftFiles(options: PeftExportOptions): ZipEntry[] {
  const { adapterConfig, tensors } = toPeft(options);
  return [
    { name: ADAPTER_CONFIG, data: Buffer.from(JSON.stringify(adapterConfig, null, 2) + "\n") },
    { name: ADAPTER_WEIGHTS, data: writeSafetensors(tensors, { format: "pt" }) },
  ];
}

/** The PEFT directory as a zip: adapter_config.json and adapter_model.safetensors at its root. */
export function writePeftZip(options: PeftExportOptions): Uint8Array<ArrayBuffer> {
  return writeZip(peftFiles(options));
}

export interface PeftImport {
  adapters: Record<string, LoraAdapter>;
  alpha: number;
  rank: number;
  baseModelName: string | undefined;
}

/** adapter_config.json fields that change what the adapter computes, and the value Anneal's math is for. */
const UNSUPPORTED: [field: string, supported: (v: unknown) => boolean, why: string][] = [
  ["peft_type", (v) => v === "LORA", "only LoRA adapters are read"],
  ["task_type", (v) => v === undefined || v === null || v === "CAUSAL_LM", "only CAUSAL_LM adapters are read"],
  ["bias", (v) => v === undefined || v === "none", 'only bias "none" is read (the base\'s biases stay frozen)'],
  ["fan_in_fan_out", (v) => v === undefined || v === false, "fan_in_fan_out is for GPT-2's Conv1D layers"],
  ["use_dora", (v) => v === undefined || v === false, "DoRA is not LoRA's update"],
  ["use_rslora", (v) => v === undefined || v === false, "rsLoRA scales by alpha/√r, not alpha/r"],
  ["modules_to_save", (v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0), "modules_to_save trains whole modules, which a LoRA checkpoint does not hold"],
  ["rank_pattern", (v) => v === undefined || v === null || (typeof v === "object" && Object.keys(v).length === 0), "per-module ranks (rank_pattern) are not read"],
  ["alpha_pattern", (v) => v === undefined || v === null || (typeof v === "object" && Object.keys(v).length === 0), "per-module alphas (alpha_pattern) are not read"],
];

/**
 * A zipped PEFT LoRA directory as GGUF-layout adapters of `config` (B of `llama` q/k permuted). The
 * directory may sit at the archive's root or in one folder. Malformed files throw MalformedAdapterError;
 * an adapter this base cannot take (method, options, modules, shapes) AdapterMismatchError.
 */
export function readPeftZip(zip: Uint8Array, config: LlamaConfig, maxUnpackedBytes: number): PeftImport {
  const files = readZip(zip, { maxUnpackedBytes });
  const configs = [...files.keys()].filter((name) => name === ADAPTER_CONFIG || name.endsWith(`/${ADAPTER_CONFIG}`));
  if (configs.length !== 1) throw new MalformedAdapterError(`a PEFT zip holds one ${ADAPTER_CONFIG}; this one holds ${configs.length}`);
  const folder = configs[0].slice(0, -ADAPTER_CONFIG.length);
  const weights = files.get(folder + ADAPTER_WEIGHTS);
  if (!weights) {
    const pickle = files.has(folder + "adapter_model.bin") ? " (adapter_model.bin is a pickle, which Anneal does not load: save with safe_serialization=True)" : "";
    throw new MalformedAdapterError(`no ${ADAPTER_WEIGHTS} beside ${ADAPTER_CONFIG}${pickle}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(files.get(configs[0])!).toString("utf8"));
  } catch {
    throw new MalformedAdapterError(`${ADAPTER_CONFIG} is not JSON`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new MalformedAdapterError(`${ADAPTER_CONFIG} is not a JSON object`);
  const fields = raw as Record<string, unknown>;
  for (const [field, supported, why] of UNSUPPORTED) {
    if (!supported(fields[field])) throw new AdapterMismatchError(`${ADAPTER_CONFIG}: ${field} ${JSON.stringify(fields[field])}: ${why}`);
  }
  const rank = fields.r;
  const alpha = fields.lora_alpha;
  if (!Number.isInteger(rank) || (rank as number) <= 0) throw new MalformedAdapterError(`${ADAPTER_CONFIG}: r must be a positive integer`);
  if (typeof alpha !== "number" || !(alpha > 0) || !Number.isFinite(alpha)) throw new MalformedAdapterError(`${ADAPTER_CONFIG}: lora_alpha must be a positive number`);

  const { tensors } = readSafetensors(weights);
  const halves = new Map<string, { a?: Float32Array; b?: Float32Array }>();
  for (const [key, tensor] of Object.entries(tensors)) {
    const match = PEFT_KEY.exec(key);
    const module = match?.[3] as LoraModule | undefined;
    if (!match || !module || !(module in PARENT) || PARENT[module] !== match[2]) {
      throw new AdapterMismatchError(`${ADAPTER_WEIGHTS}: ${key} is not a LoRA weight of a projection Anneal adapts (${Object.keys(PARENT).join(", ")})`);
    }
    const weight = loraWeightName(Number(match[1]), LORA_TARGET_OF_MODULE[module]);
    const shapes = loraShapes(config, weight, rank as number);
    const [expected, half] = match[4] === "A" ? [shapes.a, "a" as const] : [shapes.b, "b" as const];
    if (tensor.shape.join() !== expected.join()) {
      throw new AdapterMismatchError(`${key} is [${tensor.shape}]; this base with r = ${String(rank)} needs [${expected}]`);
    }
    (halves.get(weight) ?? halves.set(weight, {}).get(weight)!)[half] = tensor.data;
  }
  const adapters: Record<string, LoraAdapter> = {};
  for (const [weight, { a, b }] of halves) {
    if (!a || !b) throw new AdapterMismatchError(`${ADAPTER_WEIGHTS}: ${weight} has lora_${a ? "A" : "B"} without lora_${a ? "B" : "A"}`);
    const { target } = siteOf(weight);
    adapters[weight] = { a, b: permutesQkRows(archOf(config), target) ? permuteQkRows(b, qkHeads(config, target), rank as number) : b, rank: rank as number };
  }
  if (halves.size === 0) throw new AdapterMismatchError(`${ADAPTER_WEIGHTS} holds no LoRA weights`);
  const baseModelName = typeof fields.base_model_name_or_path === "string" ? fields.base_model_name_or_path : undefined;
  return { adapters, alpha, rank: rank as number, baseModelName };
}
