import { describe, expect, it } from "vitest";
import { valueAtPath } from "./get-item";

describe("valueAtPath", () => {
  const call = { request: { temperature: 0.7, metadata: { task: "sum" } }, messages: [{ role: "user", content: "hi" }], output: null };

  it("follows keys and array indices", () => {
    expect(valueAtPath(call, "request.metadata.task")).toBe("sum");
    expect(valueAtPath(call, "messages.0.content")).toBe("hi");
    expect(valueAtPath(call, "request")).toEqual(call.request);
  });

  it("is null where the path names nothing, never an inherited property", () => {
    expect(valueAtPath(call, "messages.1.content")).toBeNull();
    expect(valueAtPath(call, "output.content")).toBeNull();
    expect(valueAtPath(call, "request.temperature.x")).toBeNull();
    expect(valueAtPath(call, "request.constructor")).toBeNull();
    expect(valueAtPath(call, "messages.length")).toBeNull();
  });
});
