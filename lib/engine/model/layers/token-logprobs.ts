// The output distribution, reduced to what training needs per token: log π(target) and the
// entropy H = −Σ p·log p of each row of logits. Backward takes ∂L/∂logπ and (optionally) ∂L/∂H per
// token, so any per-token objective (cross-entropy, PPO, CISPO, an entropy bonus) plugs in.

// logprobs[M], entropies[M], lse[M] (log Σ exp, kept for backward) from logits[M,V].
// A negative target means "no target": its logprob is 0.
export function tokenLogprobsForward(
  logprobs: Float32Array, entropies: Float32Array, lse: Float32Array, logits: Float32Array, targets: Int32Array,
  M: number, V: number,
): void {
  for (let m = 0; m < M; m++) {
    const o = m * V;
    let max = -Infinity;
    for (let j = 0; j < V; j++) if (logits[o + j] > max) max = logits[o + j];
    let z = 0;
    let ez = 0; // Σ e^(z_j − max)·z_j, for the entropy
    for (let j = 0; j < V; j++) {
      const e = Math.exp(logits[o + j] - max);
      z += e;
      ez += e * logits[o + j];
    }
    const logZ = max + Math.log(z);
    lse[m] = logZ;
    entropies[m] = logZ - ez / z; // −Σ p(z − logZ)
    logprobs[m] = targets[m] >= 0 ? logits[o + targets[m]] - logZ : 0;
  }
}

// Overwrites logits[M,V] with ∂L/∂logits:
//   ∂logπ(target)/∂z_j = δ_j,target − p_j,   ∂H/∂z_j = −p_j·(log p_j + H).
// Rows with no gradient become zero without touching exp.
export function tokenLogprobsBackward(
  logits: Float32Array, lse: Float32Array, entropies: Float32Array, targets: Int32Array,
  dLogprobs: Float32Array, dEntropies: Float32Array | null, M: number, V: number,
): void {
  for (let m = 0; m < M; m++) {
    const o = m * V;
    const dlp = targets[m] >= 0 ? dLogprobs[m] : 0;
    const dH = dEntropies ? dEntropies[m] : 0;
    if (dlp === 0 && dH === 0) {
      logits.fill(0, o, o + V);
      continue;
    }
    const H = entropies[m];
    for (let j = 0; j < V; j++) {
      const logp = logits[o + j] - lse[m];
      const p = Math.exp(logp);
      logits[o + j] = -dlp * p - dH * p * (logp + H);
    }
    if (dlp !== 0) logits[o + targets[m]] += dlp;
  }
}
