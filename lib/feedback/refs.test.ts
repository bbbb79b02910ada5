import { describe, expect, it } from "vitest";
import { canonicalizeRefText, parseRef, RefError } from "./refs";

describe("parseRef", () => {
  it("parses object, op and call refs in either scheme, to the svc:/// form", () => {
    expect(parseRef("weave:///team/proj/object/score:AbC-12_x")).toEqual({
      canonical: "svc:///team/proj/object/score:AbC-12_x", project: "team/proj", kind: "object", name: "score", digest: "AbC-12_x",
    });
    expect(parseRef("svc:///t/p/op/openai.chat.completions.create:9f")).toMatchObject({ kind: "op", name: "openai.chat.completions.create", digest: "9f" });
    expect(parseRef("svc:///t/p/call/0190a5d2-ac96-774b-bcce-b302099a8057")).toMatchObject({ kind: "call", name: "0190a5d2-ac96-774b-bcce-b302099a8057", digest: null });
    expect(parseRef("svc:///t/p/object/rows:v1/attr/rows/index/3").canonical).toBe("svc:///t/p/object/rows:v1/attr/rows/index/3");
  });

  it.each([
    ["http://t/p/call/1"], ["svc://t/p/call/1"], ["svc:///t/call/1"], ["svc:///t/p/table/x:1"], ["svc:///bad team/p/call/1"],
    ["svc:///t/p/object/name"], ["svc:///t/p/object/:digest"], ["svc:///t/p/object/a:b:c d"], ["svc:///t/p/call/"], ["svc:///t/p/call/a b"],
    ["svc:///t/p/call/1//x"], [`svc:///t/p/call/${"x".repeat(2048)}`],
  ])("refuses %s", (ref) => {
    expect(() => parseRef(ref)).toThrow(RefError);
  });

  it("canonicalizes weave:/// text and leaves other text alone", () => {
    expect(canonicalizeRefText("weave:///t/p/call/1")).toBe("svc:///t/p/call/1");
    expect(canonicalizeRefText("svc:///t/p/call/1")).toBe("svc:///t/p/call/1");
    expect(canonicalizeRefText("good")).toBe("good");
  });
});
