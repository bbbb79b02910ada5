import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeTinyModel } from "../test-support/tiny-model";
import { CHATML_TEMPLATE } from "../tokenizer/chatml-template";
import { writeLlamaGguf } from "./llama-gguf";
import { setChatTemplate } from "./set-chat-template";

const files = writeTinyModel(2);
afterAll(() => files.remove());

describe("setChatTemplate", () => {
  it("gives an older file today's template: the very bytes writeLlamaGguf writes with it", () => {
    const write = (file: string, chatTemplate: string) =>
      writeLlamaGguf(file, { config: files.config, weights: files.weights, tokenizer: files.tokenizer, name: "t", chatTemplate });
    const older = path.join(files.dir, "older.gguf");
    const today = path.join(files.dir, "today.gguf");
    write(older, "{% for message in messages %}{{ message['content'] }}{% endfor %}");
    write(today, CHATML_TEMPLATE);
    expect(setChatTemplate(older, CHATML_TEMPLATE)).toBe(true);
    expect(fs.readFileSync(older).equals(fs.readFileSync(today))).toBe(true);
    expect(setChatTemplate(older, CHATML_TEMPLATE)).toBe(false);
  });
});
