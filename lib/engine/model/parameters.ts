// A set of named tensors in one flat Float32Array (and their gradients in another), with a named
// view per tensor. Flat storage lets the optimizer, gradient clipping and zeroing run one loop over
// everything, and makes a checkpoint's tensors plain subarrays. A model's full weights are one set
// (named after the GGUF tensors); a LoRA model's adapters are another, and its base a frozen one.
import { weightShapes, type LlamaConfig, type LlamaWeights } from "./config";

export type TensorShape = [number, number] | [number];
/** Tensor name → logical row-major shape; the order is the storage order. */
export type TensorShapes = Record<string, TensorShape>;

export interface TensorSlot {
  readonly name: string;
  readonly shape: TensorShape;
  readonly offset: number;
  readonly size: number;
}

export interface ParameterSetOptions {
  /** Values only, never trained: no gradient buffer is allocated (a frozen base costs one copy of
   *  its weights, not two), grad() throws, and grads is empty. */
  frozen?: boolean;
}

export class ParameterSet {
  readonly slots: readonly TensorSlot[];
  readonly values: Float32Array;
  /** Flat like values; empty when frozen. */
  readonly grads: Float32Array;
  readonly frozen: boolean;
  private readonly byName: Map<string, TensorSlot>;

  constructor(shapes: TensorShapes, options: ParameterSetOptions = {}) {
    let offset = 0;
    this.slots = Object.entries(shapes).map(([name, shape]) => {
      const size = shape.reduce((a, b) => a * b, 1);
      const slot = { name, shape, offset, size };
      offset += size;
      return slot;
    });
    this.byName = new Map(this.slots.map((s) => [s.name, s]));
    this.frozen = options.frozen ?? false;
    this.values = new Float32Array(offset);
    this.grads = new Float32Array(this.frozen ? 0 : offset);
  }

  /** Every weight of a llama model, named and shaped as in its GGUF file. */
  static forModel(config: LlamaConfig, options: ParameterSetOptions = {}): ParameterSet {
    return new ParameterSet(weightShapes(config), options);
  }

  get count(): number {
    return this.values.length;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  value(name: string): Float32Array {
    const s = this.slot(name);
    return this.values.subarray(s.offset, s.offset + s.size);
  }

  grad(name: string): Float32Array {
    if (this.frozen) throw new Error(`${name} is frozen: it has no gradient`);
    const s = this.slot(name);
    return this.grads.subarray(s.offset, s.offset + s.size);
  }

  /** Views of the current values by name (no copy): what a checkpoint writer needs. */
  weights(): LlamaWeights {
    return Object.fromEntries(this.slots.map((s) => [s.name, this.value(s.name)]));
  }

  /** Copies tensors in (e.g. from a GGUF file); every tensor must be present with its exact size. */
  load(weights: LlamaWeights): void {
    for (const s of this.slots) {
      const w = weights[s.name];
      if (!w) throw new Error(`missing tensor ${s.name}`);
      if (w.length !== s.size) throw new Error(`tensor ${s.name} has ${w.length} values, expected ${s.size} (${s.shape.join("×")})`);
      this.values.set(w, s.offset);
    }
  }

  zeroGrads(): void {
    this.grads.fill(0);
  }

  private slot(name: string): TensorSlot {
    const s = this.byName.get(name);
    if (!s) throw new Error(`no tensor named ${name}`);
    return s;
  }
}
