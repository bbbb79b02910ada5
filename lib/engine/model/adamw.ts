// AdamW (Loshchilov & Hutter), as torch.optim.AdamW computes it: decoupled weight decay
// (w ← w − lr·λ·w, applied to the weights, not mixed into the gradient), then the Adam step with
// bias-corrected moments. Decay applies to matrices only; norm gains are not decayed (the
// nanoGPT/llm.c convention: shrinking a gain toward 0 is not regularisation).
import type { ParameterSet } from "./parameters";

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
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

  constructor(params: ParameterSet, options: AdamWOptions = {}) {
    this.params = params;
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.95;
    this.eps = options.eps ?? 1e-8;
    this.weightDecay = options.weightDecay ?? 0.1;
    this.m = new Float32Array(params.count);
    this.v = new Float32Array(params.count);
  }

  /** One update of every parameter from params.grads at learning rate lr. */
  update(lr: number): void {
    this.step++;
    const { beta1: b1, beta2: b2, eps, m, v } = this;
    const c1 = 1 - b1 ** this.step;
    const c2 = 1 - b2 ** this.step;
    const w = this.params.values;
    const g = this.params.grads;
    for (const slot of this.params.slots) {
      const decay = slot.shape.length === 2 ? 1 - lr * this.weightDecay : 1;
      for (let i = slot.offset; i < slot.offset + slot.size; i++) {
        m[i] = b1 * m[i] + (1 - b1) * g[i];
        v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
        w[i] = w[i] * decay - (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + eps);
      }
    }
  }
}
