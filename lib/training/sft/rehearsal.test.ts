import { describe, expect, it } from "vitest";
import { commonWrapper, interleave } from "./rehearsal";

describe("commonWrapper", () => {
  it("finds the prefix and suffix every reply shares", () => {
    expect(commonWrapper(["<answer>7</answer>", "<answer>hello</answer>", "<answer>42</answer>"])).toEqual({ prefix: "<answer>", suffix: "</answer>" });
  });

  it("never lets the prefix and suffix overlap in the shortest reply", () => {
    expect(commonWrapper(["aa", "aaa"])).toEqual({ prefix: "aa", suffix: "" });
    expect(commonWrapper(["[]", "[1]"])).toEqual({ prefix: "[", suffix: "]" });
  });

  it("is empty when the replies share nothing, or there are none", () => {
    expect(commonWrapper(["yes", "no"])).toEqual({ prefix: "", suffix: "" });
    expect(commonWrapper([])).toEqual({ prefix: "", suffix: "" });
  });
});

describe("interleave", () => {
  it("spreads the rehearsal examples evenly among the job's, keeping both orders", () => {
    expect(interleave<string | number>(["a", "b", "c"], [1, 2, 3])).toEqual(["a", 1, "b", 2, "c", 3]);
    expect(interleave<string | number>(["a", "b"], [1, 2, 3, 4])).toEqual(["a", 1, 2, "b", 3, 4]);
    expect(interleave<string | number>(["a", "b", "c", "d"], [1])).toEqual(["a", "b", "c", "d", 1]);
  });

  it("returns the job's examples alone without rehearsal", () => {
    expect(interleave(["a", "b"], [])).toEqual(["a", "b"]);
  });
});
