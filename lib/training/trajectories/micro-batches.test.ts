import { describe, expect, it } from "vitest";
import { buildMicroBatches, type RlTrajectory } from "./micro-batches";
import type { TrainingRow } from "./tokenize-conversation";

const row = (length: number): TrainingRow => ({ ids: Array.from({ length }, (_, i) => i + 1), trainable: Uint8Array.from({ length }, (_, i) => (i === length - 1 ? 1 : 0)), oldLogprobs: new Float32Array(length).fill(NaN) });
const trajectory = (...lengths: number[]): RlTrajectory => ({ rows: lengths.map(row), advantage: 1, weight: 1 });
const shapes = (trajectories: RlTrajectory[], rows: number, tokens: number) =>
  buildMicroBatches(trajectories, { rows, tokens }, 0).map((b) => [b.numTrajectories, b.batchSize, b.seqLen]);

describe("buildMicroBatches", () => {
  it("fills a micro-batch up to its rows, keeping a trajectory's rows together", () => {
    expect(shapes([trajectory(4), trajectory(4, 4), trajectory(4), trajectory(4)], 3, Infinity)).toEqual([[2, 3, 4], [2, 2, 4]]);
  });

  it("closes a micro-batch before its padded tokens (rows × the longest) exceed the bound", () => {
    // Four short rows fit 4 × 8 = 32 tokens; a long one would pad all five to 20 (100 > 40).
    expect(shapes([trajectory(8), trajectory(8), trajectory(8), trajectory(8), trajectory(20), trajectory(20)], 128, 40)).toEqual([[4, 4, 8], [2, 2, 20]]);
  });

  it("gives a trajectory beyond either bound a micro-batch of its own", () => {
    expect(shapes([trajectory(4), trajectory(50), trajectory(4)], 128, 40)).toEqual([[1, 1, 4], [1, 1, 50], [1, 1, 4]]);
  });
});
