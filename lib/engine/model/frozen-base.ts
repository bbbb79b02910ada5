// A LoRA model's frozen base, kept compact: every matrix (the attention and MLP projections, the
// output head, token_embd) as a PackedWeight in its GGUF encoding — a Q8_0 Qwen2.5-0.5B holds
// ~0.5 GB here instead of 2 GB of float32 — read by the packed kernels (matmulXWt, matmulDyW,
// gatherRows), which round activations as llama.cpp does for the weight's type. The small tensors
// (norm gains, q/k/v biases) are float32, and so is a matrix stored as F32: it is its own encoding,
// and the dense kernels multiply it as the full-weight model does, to the same bits.
import { GGML_TYPE } from "../gguf/ggml-types";
import { dequantizeRows } from "../gguf/weight-types";
import type { PackedWeight } from "../kernels/packed-weight";
import { weightShapes, type LlamaConfig, type LlamaWeights } from "./config";

/** A weight as a layer reads it: float32 (trainable, or small), or packed (a frozen matrix). */
export type Weight = Float32Array | PackedWeight;
/** Tensor name → weight: what a LoRA model's base is built from (readTrainableGguf's packed read). */
export type BaseWeights = Record<string, Weight>;

export const isPacked = (w: Weight): w is PackedWeight => !(w instanceof Float32Array);

/** A weight as float32: itself, or its encoding decoded into a new array. */
export function decodeWeight(w: Weight): Float32Array {
  if (!isPacked(w)) return w;
  const out = new Float32Array(w.rows * w.cols);
  dequantizeRows(w.type, w.data, out);
  return out;
}

export class FrozenBase {
  private readonly tensors = new Map<string, Weight>();

  /** Every tensor of weightShapes(config), with its exact shape; float32 ones (and F32 ones) are copied. */
  constructor(config: LlamaConfig, weights: BaseWeights) {
    for (const [name, shape] of Object.entries(weightShapes(config))) {
      const w = weights[name];
      if (!w) throw new Error(`missing tensor ${name}`);
      const size = shape.reduce((a, b) => a * b, 1);
      if (shape.length === 2) {
        const [rows, cols] = shape;
        if (isPacked(w) && (w.rows !== rows || w.cols !== cols)) throw new Error(`tensor ${name} is ${w.rows}×${w.cols}, expected ${rows}×${cols}`);
        if (!isPacked(w) && w.length !== size) throw new Error(`tensor ${name} has ${w.length} values, expected ${size} (${rows}×${cols})`);
        this.tensors.set(name, !isPacked(w) ? w.slice() : w.type === GGML_TYPE.F32 ? decodeWeight(w) : w);
      } else {
        const values = decodeWeight(w);
        if (values.length !== size) throw new Error(`tensor ${name} has ${values.length} values, expected ${size}`);
        this.tensors.set(name, values === w ? values.slice() : values);
      }
    }
  }

  has(name: string): boolean {
    return this.tensors.has(name);
  }

  /** A 1-D tensor (a gain or a bias). */
  vector(name: string): Float32Array {
    const w = this.get(name);
    if (isPacked(w)) throw new Error(`${name} is a matrix`);
    return w;
  }

  /** A 2-D tensor: packed, or float32 when the file stores it so. */
  matrix(name: string): Weight {
    return this.get(name);
  }

  /** Bytes of weights held. */
  get bytes(): number {
    let n = 0;
    for (const w of this.tensors.values()) n += isPacked(w) ? w.data.byteLength : w.byteLength;
    return n;
  }

  /** Every tensor as float32 (the packed ones decoded into new arrays): for references and tests. */
  weights(): LlamaWeights {
    return Object.fromEntries([...this.tensors].map(([name, w]) => [name, decodeWeight(w)]));
  }

  private get(name: string): Weight {
    const w = this.tensors.get(name);
    if (!w) throw new Error(`no tensor named ${name}`);
    return w;
  }
}
