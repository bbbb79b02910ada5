// Causal grouped-query attention in plain TypeScript, one query row at a time.
// Layouts: q, out [B,T,H,dh]; k, v [B,T,Hkv,dh]; lse [B,H,T]. Backward recomputes each
// probability from the saved log-sum-exp: p = exp(s·scale − lse), as FlashAttention does.
import type { AttentionShape } from "../kernels";

let scores: Float64Array = new Float64Array(0);

export function attentionForward(
  out: Float32Array, lse: Float32Array, q: Float32Array, k: Float32Array, v: Float32Array, s: AttentionShape,
): void {
  const { batch: B, seqLen: T, nHeads: H, nKvHeads: Hkv, headDim: dh } = s;
  const group = H / Hkv;
  const scale = 1 / Math.sqrt(dh);
  if (scores.length < T) scores = new Float64Array(T);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const g = Math.floor(h / group);
      for (let i = 0; i < T; i++) {
        const qi = ((b * T + i) * H + h) * dh;
        let max = -Infinity;
        for (let j = 0; j <= i; j++) {
          const kj = ((b * T + j) * Hkv + g) * dh;
          let dot = 0;
          for (let c = 0; c < dh; c++) dot += q[qi + c] * k[kj + c];
          scores[j] = dot * scale;
          if (scores[j] > max) max = scores[j];
        }
        let z = 0;
        for (let j = 0; j <= i; j++) {
          scores[j] = Math.exp(scores[j] - max);
          z += scores[j];
        }
        lse[(b * H + h) * T + i] = max + Math.log(z);
        for (let c = 0; c < dh; c++) out[qi + c] = 0;
        for (let j = 0; j <= i; j++) {
          const p = scores[j] / z;
          const vj = ((b * T + j) * Hkv + g) * dh;
          for (let c = 0; c < dh; c++) out[qi + c] += p * v[vj + c];
        }
      }
    }
  }
}

export function attentionBackward(
  dq: Float32Array, dk: Float32Array, dv: Float32Array, dout: Float32Array,
  q: Float32Array, k: Float32Array, v: Float32Array, out: Float32Array, lse: Float32Array, s: AttentionShape,
): void {
  const { batch: B, seqLen: T, nHeads: H, nKvHeads: Hkv, headDim: dh } = s;
  const group = H / Hkv;
  const scale = 1 / Math.sqrt(dh);
  dk.fill(0, 0, B * T * Hkv * dh);
  dv.fill(0, 0, B * T * Hkv * dh);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const g = Math.floor(h / group);
      for (let i = 0; i < T; i++) {
        const qi = ((b * T + i) * H + h) * dh;
        const rowLse = lse[(b * H + h) * T + i];
        // Σ_j p_j·dp_j = dout_i · out_i: the softmax Jacobian's shared term.
        let dot = 0;
        for (let c = 0; c < dh; c++) dot += dout[qi + c] * out[qi + c];
        for (let c = 0; c < dh; c++) dq[qi + c] = 0;
        for (let j = 0; j <= i; j++) {
          const kj = ((b * T + j) * Hkv + g) * dh;
          let qk = 0;
          let dp = 0;
          for (let c = 0; c < dh; c++) {
            qk += q[qi + c] * k[kj + c];
            dp += dout[qi + c] * v[kj + c];
          }
          const p = Math.exp(qk * scale - rowLse);
          const ds = p * (dp - dot) * scale;
          for (let c = 0; c < dh; c++) {
            dv[kj + c] += p * dout[qi + c];
            dq[qi + c] += ds * k[kj + c];
            dk[kj + c] += ds * q[qi + c];
          }
        }
      }
    }
  }
}
