// A base model with a LoRA adapter merged into its weights, as one F16 GGUF that any llama.cpp (or
// Ollama, LM Studio) serves without the adapter: W' = W + scale·B·A for each adapted W[out][in]
// (A [rank][in], B [out][rank], scale = alpha/rank), what PEFT's merge_and_unload followed by
// convert_hf_to_gguf --outtype f16 gives.
//
// What the file holds: the base's metadata, all of it (tokenizer, chat template, hyperparameters) in
// its order, with general.file_type MOSTLY_F16 and general.name the caller's; the base's tensors in
// its order, every matrix as F16 and every 1-D tensor (norms, biases, rope_freqs) as F32, as the
// converter keeps them. A base of any type Anneal decodes (weight-types.ts) is merged from its decoded
// values. The adapter is in GGUF's own layout (llama's q/k rows already permuted as the base's are),
// so B·A adds to the base's rows as they lie: nothing to permute.
//
// Memory: the file is made as it is streamed, a few rows at a time (PIECE_VALUES values: their
// stored bytes, float32 values and F16 encoding), with the current weight's A and B; never a whole
// tensor (a 151,936-token embedding is 272 MB as F16).

import { GGML_TYPE, ggmlTypeName } from "./ggml-types";
import { encodeF16 } from "./half-float";
import { openGguf, type GgufFile, type GgufTensorInfo } from "./read-gguf";
import { str, u32, type GgufMetadata } from "./values";
import { canDequantize, dequantizeRows, DEQUANTIZABLE_TYPES } from "./weight-types";
import { ggufStream, type GgufStream, type GgufTensorInPieces } from "./write-gguf";

/** llama_ftype MOSTLY_F16 ("except 1d tensors"). */
const FILE_TYPE_MOSTLY_F16 = 1;
/** Values made per piece of a tensor: 4 MB as float32. */
const PIECE_VALUES = 1 << 20;

export interface MergeLoraOptions {
  basePath: string;
  /** A LoRA adapter GGUF of the base's architecture; without one the base is written as F16. */
  adapterPath?: string;
  /** general.name of the merged file. */
  name: string;
}

export interface MergedGguf extends GgufStream {
  /** Closes the files; chunks() closes them when it ends or is returned early, this is for a
   *  stream that is never read. Safe to call twice. */
  close(): void;
}

/** An adapted weight: its A [rank][in] and B [out][rank] tensors in the adapter file. */
interface AdapterOf {
  a: GgufTensorInfo;
  b: GgufTensorInfo;
  rank: number;
}

/** Checks the base and adapter and lays out the merged file; its errors never name a path. */
export function mergeLoraIntoGguf(options: MergeLoraOptions): MergedGguf {
  const base = openGguf(options.basePath);
  let adapter: GgufFile | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    base.close();
    adapter?.close();
  };
  try {
    for (const t of base.tensors) {
      if (!canDequantize(t.ggmlType)) {
        throw new Error(`the base stores ${t.name} as ${ggmlTypeName(t.ggmlType)}, which Anneal does not decode (it reads ${DEQUANTIZABLE_TYPES.map(ggmlTypeName).join(", ")})`);
      }
    }
    adapter = options.adapterPath === undefined ? undefined : openGguf(options.adapterPath);
    const adapters = adapter ? adaptedWeights(base, adapter) : new Map<string, AdapterOf>();
    const metadata: GgufMetadata = { ...base.metadata, "general.file_type": u32(FILE_TYPE_MOSTLY_F16), "general.name": str(options.name) };
    const tensors = base.tensors.map((t): GgufTensorInPieces => {
      const asF16 = t.dims.length >= 2;
      const values = t.dims.reduce((a, b) => a * b, 1);
      return {
        name: t.name,
        dims: t.dims,
        ggmlType: asF16 ? GGML_TYPE.F16 : GGML_TYPE.F32,
        byteLength: values * (asF16 ? 2 : 4),
        pieces: () => mergedPieces(base, t, asF16, adapter, adapters.get(t.name)),
      };
    });
    const stream = ggufStream(metadata, tensors);
    return {
      byteLength: stream.byteLength,
      *chunks() {
        try {
          yield* stream.chunks();
        } finally {
          close();
        }
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** The adapter's A and B of each base weight it adapts, checked against the base as llama.cpp checks
 *  them (llama-adapter.cpp): the same architecture, A [in, rank] and B [rank, out] for a weight of
 *  GGUF dims [in, out]. */
function adaptedWeights(base: GgufFile, adapter: GgufFile): Map<string, AdapterOf> {
  const m = adapter.metadata;
  if (m["general.type"]?.value !== "adapter" || m["adapter.type"]?.value !== "lora") throw new Error("the adapter is not a LoRA adapter GGUF");
  const arch = base.metadata["general.architecture"]?.value;
  if (m["general.architecture"]?.value !== arch) throw new Error(`the adapter is for a ${String(m["general.architecture"]?.value)} model, the base is ${String(arch)}`);
  const byName = new Map(adapter.tensors.map((t) => [t.name, t]));
  const baseByName = new Map(base.tensors.map((t) => [t.name, t]));
  const out = new Map<string, AdapterOf>();
  for (const a of adapter.tensors) {
    if (!a.name.endsWith(".lora_a")) {
      if (!a.name.endsWith(".lora_b")) throw new Error(`the adapter holds ${a.name}, which is not a LoRA tensor`);
      if (!byName.has(a.name.slice(0, -".lora_b".length) + ".lora_a")) throw new Error(`the adapter has ${a.name} without its lora_a`);
      continue;
    }
    const weight = a.name.slice(0, -".lora_a".length);
    const b = byName.get(weight + ".lora_b");
    const w = baseByName.get(weight);
    if (!b) throw new Error(`the adapter has ${a.name} without its lora_b`);
    // llama.cpp applies an adapter of token_embd.weight with A and B swapped (a row lookup): no
    // adapter Anneal makes or imports has one, so it is refused rather than merged another way.
    if (!w || w.dims.length !== 2 || weight === "token_embd.weight") throw new Error(`the adapter adapts ${weight}, which is not a projection of the base`);
    const [inDim, outDim] = w.dims;
    const rank = a.dims[1];
    if (a.dims.length !== 2 || b.dims.length !== 2 || a.dims[0] !== inDim || b.dims[0] !== rank || b.dims[1] !== outDim || !(rank > 0)) {
      throw new Error(`the adapter of ${weight} has A [${a.dims}] and B [${b.dims}], which do not fit its [${w.dims}]`);
    }
    out.set(weight, { a, b, rank });
  }
  return out;
}

/** alpha/rank of a weight's own rank, or 1 where alpha is 0 or absent, as llama.cpp scales each
 *  adapted projection (llm_build_lora_mm). */
const loraScale = (adapter: GgufFile, rank: number): number => {
  const alpha = Number(adapter.metadata["adapter.lora.alpha"]?.value ?? 0);
  return alpha ? alpha / rank : 1;
};

/** Tensor t's bytes in the merged file, PIECE_VALUES values (whole rows) at a time. */
function* mergedPieces(
  base: GgufFile,
  t: GgufTensorInfo,
  asF16: boolean,
  adapter: GgufFile | undefined,
  lora: AdapterOf | undefined,
): Generator<Uint8Array> {
  const rowLength = t.dims[0];
  const rows = t.dims.slice(1).reduce((a, b) => a * b, 1);
  const rowsPerPiece = Math.max(1, Math.floor(PIECE_VALUES / rowLength));
  // Made once per weight: A [rank][in] and B [out][rank] (a few MB at most for a real model).
  const a = lora && adapter?.readTensor(lora.a.name);
  const b = lora && adapter?.readTensor(lora.b.name);
  for (let first = 0; first < rows; first += rowsPerPiece) {
    const count = Math.min(rowsPerPiece, rows - first);
    const values = new Float32Array(count * rowLength);
    dequantizeRows(t.ggmlType, base.readTensorBytes(t.name, first, count), values);
    if (lora && adapter && a && b) addLowRankRows(values, first, count, rowLength, a, b, lora.rank, loraScale(adapter, lora.rank));
    yield asF16 ? new Uint8Array(encodeF16(values).buffer) : new Uint8Array(values.buffer);
  }
}

/** w[o][i] += scale·Σ_r B[o][r]·A[r][i] for rows o of [first, first + count) held in w; the sum in
 *  float64, rounded once into w. */
function addLowRankRows(w: Float32Array, first: number, count: number, inDim: number, a: Float32Array, b: Float32Array, rank: number, scale: number): void {
  const delta = new Float64Array(inDim);
  for (let row = 0; row < count; row++) {
    delta.fill(0);
    const o = first + row;
    for (let r = 0; r < rank; r++) {
      const coefficient = scale * b[o * rank + r];
      const aRow = r * inDim;
      for (let i = 0; i < inDim; i++) delta[i] += coefficient * a[aRow + i];
    }
    const at = row * inDim;
    for (let i = 0; i < inDim; i++) w[at + i] += delta[i];
  }
}
