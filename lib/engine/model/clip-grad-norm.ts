// Global gradient-norm clipping: if ‖g‖₂ over all parameters exceeds maxNorm, scale every
// gradient by maxNorm/‖g‖ (direction kept, step bounded).

/** Returns the norm before clipping. A non-finite norm is returned untouched (no scaling) so the
 *  caller can skip the step instead of writing NaN into the weights. */
export function clipGradNorm(grads: Float32Array, maxNorm: number): number {
  let ss = 0;
  for (let i = 0; i < grads.length; i++) ss += grads[i] * grads[i];
  const norm = Math.sqrt(ss);
  if (Number.isFinite(norm) && norm > maxNorm) {
    const scale = maxNorm / norm;
    for (let i = 0; i < grads.length; i++) grads[i] *= scale;
  }
  return norm;
}
