import { describe, expect, it } from "vitest";
import { dot, gradientError } from "../gradcheck";
import { embedding64 } from "../reference";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";
import { embeddingBackward, embeddingForward } from "./embedding";

describe("embedding", () => {
  const [V, D] = [7, 5];
  const tokens = Int32Array.from([3, 0, 3, 6]); // token 3 twice: its gradient must sum
  const M = tokens.length;
  const rng = new Prng(1);
  const E = randomNormal(rng, V * D);
  const r = randomNormal(rng, M * D);

  it("looks up rows like the reference", () => {
    const x = new Float32Array(M * D);
    embeddingForward(x, E, tokens, M, D);
    expect(Array.from(x)).toEqual(Array.from(embedding64(E, tokens, D)));
  });

  it("scatter-adds gradients into the looked-up rows", () => {
    const dE = new Float32Array(V * D);
    embeddingBackward(dE, r, tokens, M, D);
    const E64 = Float64Array.from(E);
    expect(gradientError(() => dot(r, embedding64(E64, tokens, D)), E64, dE)).toBeLessThan(1e-6);
  });
});
