// fmaf(a, b, c) for float32 values: a·b + c rounded once to float32, as an FMA instruction computes
// it (ggml's C++ is compiled with the compiler fusing a product into the sum that uses it). a·b is
// exact in float64 (24 + 24 significant bits); the sum's float64 rounding error is recovered
// (TwoSum) and breaks the one tie where rounding the float64 sum to float32 could go the wrong way.
const scratch = new Float32Array(1);
const scratchBits = new Int32Array(scratch.buffer);

/** The float32 next to `f` in the direction of `toward`. */
function nextFloat(f: number, toward: number): number {
  scratch[0] = f;
  if (f === 0) scratchBits[0] = toward > 0 ? 1 : -2147483647;
  else scratchBits[0] += (toward > f) === (f > 0) ? 1 : -1;
  return scratch[0];
}

export function fmaf(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = Math.fround(s);
  if (r === s || !Number.isFinite(s)) return r;
  const v = s - p;
  const err = p - (s - v) + (c - v);
  if (err === 0) return r;
  const other = nextFloat(r, s);
  if (Math.abs(s - r) !== Math.abs(other - s)) return r; // not a tie: s's rounding is the true sum's
  // A tie in float64 is not one in the true sum: err says on which side of it the true value lies.
  return (err > 0) === (other > r) ? other : r;
}
