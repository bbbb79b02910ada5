// bench:learn's RL tasks: held-out prompts never trained on, no prompt twice, exact-answer reward.
import { describe, expect, it } from "vitest";
import { wordTasks } from "../../examples/lib/word-tasks";
import { heldoutTasks, trainingPlan, type RlSettings } from "./bench-learn-rl";

const prompt = (t: { messages: { content?: unknown }[] }) => String(t.messages[0].content);
const choice = (content: string, finish_reason: "stop" | "length" = "stop") => ({ message: { role: "assistant" as const, content, refusal: null }, finish_reason });

describe("wordTasks", () => {
  const heldout = wordTasks("capitalize", { split: "heldout", seed: 11, count: 64 });
  const train = wordTasks("capitalize", { split: "train", seed: 1001, count: 400 });

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

  it("asks for the first of three words", () => {
    const tasks = wordTasks("first-word", { split: "heldout", seed: 11, count: 64 });
    expect(new Set(tasks.map(prompt)).size).toBe(64);
    for (const task of tasks) {
      const words = prompt(task).match(/^First word of: ([a-z]+) ([a-z]+) ([a-z]+)$/);
      expect(words).not.toBeNull();
      expect(task.answer).toBe(words![1]);
    }
    const lastWord = (t: (typeof tasks)[number]) => prompt(t).split(" ").at(-1)!;
    const task = tasks.find((t) => t.answer !== lastWord(t))!;
    expect(task.reward(choice(task.answer))).toBe(1);
    expect(task.reward(choice(lastWord(task)))).toBe(0);
  });

  it("says so when the split has fewer prompts than asked", () => {
    expect(() => wordTasks("capitalize", { split: "heldout", seed: 1, count: 1000 })).toThrow(/fewer than 1000 heldout prompts/);
  });
});

describe("trainingPlan", () => {
  const settings = {
    baseModel: "anneal/tiny-chat-2", lora: null, task: "first-word", families: ["arithmetic"], reward: "exact", jobs: 3, groupsPerJob: 10, groupSize: 8,
    config: { learning_rate: null }, replay: 0.5, maxTokens: 48, heldoutPrompts: 64, heldoutSamples: 4, pollMs: 200,
  } satisfies RlSettings;

  it("gives each job its share of curriculum groups beside the task's, and never a held-out prompt", () => {
    const plan = trainingPlan(settings, 1);
    const heldout = new Set(heldoutTasks(settings).map(prompt));
    expect(plan.map((job) => [job.own.length, job.replayed.length])).toEqual([[5, 5], [5, 5], [5, 5]]);
    for (const job of plan) {
      expect(job.own.every((t) => /^First word of: /.test(prompt(t)) && !heldout.has(prompt(t)))).toBe(true);
      expect(job.replayed.some((t) => /^First word of: /.test(prompt(t)))).toBe(false);
    }
    expect(trainingPlan({ ...settings, replay: 0 }, 1).every((job) => job.own.length === 10 && job.replayed.length === 0)).toBe(true);
  });
});
