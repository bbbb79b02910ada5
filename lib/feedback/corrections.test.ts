import { describe, expect, it } from "vitest";
import { isCorrection } from "./corrections";

describe("isCorrection", () => {
  it("is false for the model's reply, whatever whitespace surrounds it", () => {
    expect(isCorrection("7", "7")).toBe(false);
    expect(isCorrection("  7\n", "7")).toBe(false);
    expect(isCorrection("7", "\t7 \n")).toBe(false);
  });
  it("is true for a changed reply, also inside the text", () => {
    expect(isCorrection("8", "7")).toBe(true);
    expect(isCorrection("a  b", "a b")).toBe(true);
  });
  it("is true for any text where the call has no reply, and false for no text", () => {
    expect(isCorrection("7", null)).toBe(true);
    expect(isCorrection("  ", null)).toBe(false);
    expect(isCorrection(7, "7")).toBe(false);
  });
});
