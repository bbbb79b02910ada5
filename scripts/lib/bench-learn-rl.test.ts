// bench:learn's RL task: held-out prompts never trained on, no prompt twice, exact-answer reward.
import { describe, expect, it } from "vitest";
import { capitalizeTasks } from "../../examples/lib/capitalize-tasks";

const prompt = (t: { messages: { content?: unknown }[] }) => String(t.messages[0].content);
const choice = (content: string, finish_reason: "stop" | "length" = "stop") => ({ message: { role: "assistant" as const, content, refusal: null }, finish_reason });

describe("capitalizeTasks", () => {
  const heldout = capitalizeTasks({ split: "heldout", seed: 11, count: 64 });
  const train = capitalizeTasks({ split: "train", seed: 1001, count: 400 });

  it("keeps held-out prompts out of training and repeats none", () => {
    const trained = new Set(train.map(prompt));
    expect(heldout.some((t) => trained.has(prompt(t)))).toBe(false);
    expect(new Set(heldout.map(prompt)).size).toBe(64);
    expect(trained.size).toBe(400);
  });

  it("rewards only the exact answer of a finished turn", () => {
    const [task] = heldout;
    expect(prompt(task)).toMatch(/^Capitalize: [a-z]+ [a-z]+$/);
    expect(task.answer).toBe(prompt(task).slice("Capitalize: ".length).toUpperCase());
    expect(task.reward(choice(task.answer))).toBe(1);
    expect(task.reward(choice(`${task.answer}.`))).toBe(1);
    expect(task.reward(choice(task.answer.toLowerCase()))).toBe(0);
    expect(task.reward(choice(task.answer, "length"))).toBe(0);
  });

  it("says so when the split has fewer prompts than asked", () => {
    expect(() => capitalizeTasks({ split: "heldout", seed: 1, count: 1000 })).toThrow(/fewer than 1000 heldout prompts/);
  });
});
