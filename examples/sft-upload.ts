// SFT from an uploaded file: write a JSONL of conversations that teach tiny-chat a new reply
// format (every answer wrapped as <answer>…</answer>), upload it (POST /v1/files through the
// `openai` SDK), train one SFT job on it, follow its events, then chat with the new checkpoint.
//
//   ANNEAL_BASE_URL=http://localhost:3000 ANNEAL_API_KEY=... npx tsx examples/sft-upload.ts
import { Anneal, inferenceName } from "./lib/anneal";
import { corpusTasks } from "./lib/tasks";

const anneal = Anneal.fromEnv();
const families = ["arithmetic", "strings", "counting", "json"] as const;

const lines = corpusTasks({ families: [...families], split: "train", seed: 2000, count: 240 })
  .map((task) => ({ messages: [...task.messages, { role: "assistant", content: `<answer>${task.answer}</answer>` }] }));
const fileId = await anneal.uploadJsonl("answer-tags.jsonl", lines);
console.log(`uploaded ${lines.length} examples as file ${fileId}`);

const model = await anneal.createModel({ project: "examples", name: process.env.SFT_MODEL ?? "sft-answer-tags", baseModel: "anneal/tiny-chat" });
const jobId = await anneal.submitSftJob(model.id, fileId, { batch_size: 8, learning_rate: 3e-3 });
await anneal.waitForJob(jobId, {
  onEvent: (event) => {
    if (event.type === "gradient_step" && Number(event.data.step) % 10 === 0) console.log(`  gradient step ${event.data.step}: loss ${Number(event.data.loss).toFixed(3)}`);
  },
});
const step = await anneal.latestStep(model.id);
console.log(`trained: ${inferenceName(model, step)}`);

for (const task of corpusTasks({ families: [...families], split: "heldout", seed: 11, count: 5 })) {
  const ask = async (name: string) =>
    (await anneal.openai.chat.completions.create({ model: name, messages: task.messages, temperature: 0, max_tokens: 32 })).choices[0].message.content;
  console.log(`${JSON.stringify(task.messages.at(-1)!.content)}\n  base:    ${await ask("anneal/tiny-chat")}\n  step ${step}: ${await ask(inferenceName(model, step))}`);
}
