// AdamW (Loshchilov & Hutter), as torch.optim.AdamW computes it: decoupled weight decay
// (w ← w − lr·λ·w, applied to the weights, not mixed into the gradient), then the Adam step with
// bias-corrected moments. Decay applies to matrices only; norm gains are not decayed (the
// nanoGPT/llm.c convention: shrinking a gain toward 0 is not regularisation).
import { defaultKernels, type Kernels } from "../kernels";
import type { ParameterSet } from "./parameters";

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
  /** Defaults to the process-wide choice, like LlamaModel's. */
  kernels?: Kernels;
}

export class AdamW {
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  /** First and second moment estimates, flat like params.values (save them to resume training). */
  readonly m: Float32Array;
  readonly v: Float32Array;
  /** Steps taken so far. */
  step = 0;
  private readonly params: ParameterSet;
  private readonly kernels: Kernels;

  constructor(params: ParameterSet, options: AdamWOptions = {}) {
    if (params.frozen) throw new Error("AdamW needs trainable parameters, not a frozen set");
    this.params = params;
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.95;
    this.eps = options.eps ?? 1e-8;
    this.weightDecay = options.weightDecay ?? 0.1;
    this.kernels = options.kernels ?? defaultKernels();
    this.m = new Float32Array(params.count);
    this.v = new Float32Array(params.count);
  }

  /** One update of every parameter from params.grads at learning rate lr. */
  update(lr: number): void {
    this.step++;
    const { values, grads } = this.params;
    const base = { lr, beta1: this.beta1, beta2: this.beta2, eps: this.eps, c1: 1 - this.beta1 ** this.step, c2: 1 - this.beta2 ** this.step };
    for (const { offset, size, shape } of this.params.slots) {
      const end = offset + size;
      const h = { ...base, decay: shape.length === 2 ? 1 - lr * this.weightDecay : 1 };
      this.kernels.adamwStep(values.subarray(offset, end), grads.subarray(offset, end), this.m.subarray(offset, end), this.v.subarray(offset, end), size, h);
    }
  }
}
