import { describe, expect, it } from "vitest";
import { parsePastedPrompts, readRlRunSettings } from "./rl-run-input";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  const base = { group_size: "4", iterations: "3", prompts_per_iteration: "8", temperature: "1", max_tokens: "32", learning_rate: "" };
  for (const [k, v] of Object.entries({ ...base, ...values })) data.set(k, v);
  return data;
};

describe("readRlRunSettings", () => {
  it("builds each checker with its parameters", () => {
    expect(readRlRunSettings(form({ "checker.type": "exact_match", "checker.ignore_case": "on" })).settings.checker).toEqual({ type: "exact_match", case_sensitive: false });
    expect(readRlRunSettings(form({ "checker.type": "regex", "checker.pattern": "^\\d+$", "checker.flags": "i" })).settings.checker).toEqual({ type: "regex", pattern: "^\\d+$", flags: "i" });
    expect(readRlRunSettings(form({ "checker.type": "length", "checker.min": "1", "checker.max": "20" })).settings.checker).toEqual({ type: "length", min: 1, max: 20 });
    const { settings, errors } = readRlRunSettings(form({ "checker.type": "numeric_match", learning_rate: "1e-4" }));
    expect(errors).toEqual({});
    expect(settings).toMatchObject({ checker: { type: "numeric_match", tolerance: 0 }, group_size: 4, iterations: 3, experimental_config: { learning_rate: 1e-4 } });
  });
  it("reports what the browser can tell, by the API's field names", () => {
    const { errors } = readRlRunSettings(form({ "checker.type": "length", "checker.min": "5", "checker.max": "2", group_size: "1", learning_rate: "-1" }));
    expect(Object.keys(errors).sort()).toEqual(["checker.max", "experimental_config.learning_rate", "group_size"]);
    expect(readRlRunSettings(form({ "checker.type": "json_schema", "checker.schema": "{nope" })).errors).toHaveProperty("checker.schema");
  });
  it("sends a seed only when one is given", () => {
    expect(readRlRunSettings(form({ "checker.type": "exact_match" })).settings).not.toHaveProperty("seed");
    expect(readRlRunSettings(form({ "checker.type": "exact_match", seed: "42" })).settings.seed).toBe(42);
    expect(readRlRunSettings(form({ "checker.type": "exact_match", seed: "1.5" })).errors).toHaveProperty("seed");
  });
});

describe("parsePastedPrompts", () => {
  it("reads one prompt per line and names the first bad line", () => {
    expect(parsePastedPrompts('{"messages":[{"role":"user","content":"2+2?"}],"reference":"4"}\n\n').items).toHaveLength(1);
    expect(parsePastedPrompts('{"messages":[]}\nnope').error).toMatch(/^Line 2: not valid JSON/);
    expect(parsePastedPrompts('{"reference":"4"}').error).toMatch(/Line 1/);
    expect(parsePastedPrompts("").error).toBeDefined();
  });
});
