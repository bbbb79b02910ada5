// All of a model's weights in one flat Float32Array (and gradients in another), with a named view
// per GGUF tensor. Flat storage lets the optimizer, gradient clipping and zeroing run one loop over
// everything, and makes a checkpoint's tensors plain subarrays.
import { tensorShapes, type LlamaConfig, type LlamaWeights } from "./config";

export interface TensorSlot {
  readonly name: string;
  readonly shape: [number, number] | [number];
  readonly offset: number;
  readonly size: number;
}

export class ParameterSet {
  readonly slots: readonly TensorSlot[];
  readonly values: Float32Array;
  readonly grads: Float32Array;
  private readonly byName: Map<string, TensorSlot>;

  constructor(config: LlamaConfig) {
    let offset = 0;
    this.slots = Object.entries(tensorShapes(config)).map(([name, shape]) => {
      const size = shape.reduce((a, b) => a * b, 1);
      const slot = { name, shape, offset, size };
      offset += size;
      return slot;
    });
    this.byName = new Map(this.slots.map((s) => [s.name, s]));
    this.values = new Float32Array(offset);
    this.grads = new Float32Array(offset);
  }

  get count(): number {
    return this.values.length;
  }

  value(name: string): Float32Array {
    const s = this.slot(name);
    return this.values.subarray(s.offset, s.offset + s.size);
  }

  grad(name: string): Float32Array {
    const s = this.slot(name);
    return this.grads.subarray(s.offset, s.offset + s.size);
  }

  /** Views of the current values by GGUF name (no copy): what a checkpoint writer needs. */
  weights(): LlamaWeights {
    return Object.fromEntries(this.slots.map((s) => [s.name, this.value(s.name)]));
  }

  /** Copies weights in (e.g. from a GGUF file); every tensor must be present with its exact size. */
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
