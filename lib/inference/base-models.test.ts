// Names of base models: a models-file entry's `hf_name` (one or a list) resolves to it as its name does;
// two entries claiming one name are refused naming both; database entries a configured base already
// claims are shadowed; an unknown base's 400 lists names, never paths.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { writeTinyModel, type TinyModelFiles } from "@/lib/engine/test-support/tiny-model";
import { availableBaseNames, configuredBaseModels, findBaseModel, mergeBaseModels, type BaseModelRow } from "./base-models";

let files: TinyModelFiles | undefined;
afterEach(() => {
  files?.remove();
  files = undefined;
  delete process.env.ANNEAL_MODELS_FILE;
  resetEnvCache();
});

function listBases(entries: object[]) {
  files = writeTinyModel(5);
  const listing = path.join(files.dir, "models.json");
  fs.writeFileSync(listing, JSON.stringify(entries));
  process.env.ANNEAL_MODELS_FILE = listing;
  resetEnvCache();
  return files;
}

const row = (name: string, hfNames: string[] = []): BaseModelRow => ({ id: `id-${name}`, name, hfNames, file: "sub/x.gguf", description: "", trainable: false });

describe("hf_name", () => {
  it("takes a string or a list, on GGUF and upstream entries; the base is found by any of its names", () => {
    listBases([
      { name: "t/qwen", gguf: "tiny.gguf", hf_name: "Qwen/Qwen2.5-0.5B-Instruct" },
      { name: "t/remote", upstream: "http://vllm:8000/v1", hf_name: ["meta-llama/Llama-3.2-1B-Instruct", "meta-llama/Llama-3.2-1B"] },
      { name: "t/plain", gguf: "tiny.gguf" },
    ]);
    const models = configuredBaseModels();
    expect(models.filter((m) => m.source === "file").map((m) => [m.name, m.hfNames])).toEqual([
      ["t/qwen", ["Qwen/Qwen2.5-0.5B-Instruct"]],
      ["t/remote", ["meta-llama/Llama-3.2-1B-Instruct", "meta-llama/Llama-3.2-1B"]],
      ["t/plain", []],
    ]);
    expect(findBaseModel(models, "Qwen/Qwen2.5-0.5B-Instruct")?.name).toBe("t/qwen");
    expect(findBaseModel(models, "meta-llama/Llama-3.2-1B")?.name).toBe("t/remote");
    expect(findBaseModel(models, "t/plain")?.name).toBe("t/plain");
    expect(findBaseModel(models, "Qwen/Qwen3-0.6B")).toBeUndefined();
    expect(availableBaseNames(models)).toContain("t/qwen (Qwen/Qwen2.5-0.5B-Instruct), t/remote (meta-llama/Llama-3.2-1B-Instruct, meta-llama/Llama-3.2-1B), t/plain");
    expect(availableBaseNames(models)).not.toContain(".gguf");
  });

  it("refuses two entries claiming one name or hf_name, naming both (no path)", () => {
    listBases([
      { name: "t/a", gguf: "tiny.gguf", hf_name: "Org/Model" },
      { name: "t/b", gguf: "tiny.gguf", hf_name: ["Org/Other", "Org/Model"] },
    ]);
    expect(() => configuredBaseModels()).toThrow("Two base models claim the name 'Org/Model': ANNEAL_MODELS_FILE's entry 1 ('t/a') and ANNEAL_MODELS_FILE's entry 2 ('t/b').");
    listBases([{ name: "t/a", gguf: "tiny.gguf" }, { name: "t/b", gguf: "tiny.gguf", hf_name: "t/a" }]);
    expect(() => configuredBaseModels()).toThrow(/claim the name 't\/a': ANNEAL_MODELS_FILE's entry 1 \('t\/a'\) and ANNEAL_MODELS_FILE's entry 2 \('t\/b'\)/);
    listBases([{ name: "t/a", gguf: "tiny.gguf" }, { name: "t/a", gguf: "tiny.gguf" }]);
    expect(() => configuredBaseModels()).toThrow(/claim the name 't\/a'/);
  });

  it("lets an entry repeat its own name as its hf_name", () => {
    listBases([{ name: "Org/Model", gguf: "tiny.gguf", hf_name: ["Org/Model", "Org/Model"] }]);
    expect(configuredBaseModels().find((m) => m.name === "Org/Model")?.hfNames).toEqual(["Org/Model"]);
  });
});

describe("database entries", () => {
  it("come after the configured bases; one whose name or hf_name is taken is shadowed, not served", () => {
    listBases([{ name: "t/file", gguf: "tiny.gguf", hf_name: "Org/File" }]);
    const { models, shadowed } = mergeBaseModels(
      configuredBaseModels(),
      [row("t/db", ["Org/Db"]), row("t/file"), row("t/other", ["Org/File"]), row("t/late", ["Org/Db"])],
      "/srv/models",
    );
    expect(models.map((m) => [m.name, m.source])).toContainEqual(["t/db", "database"]);
    expect(models.at(-1)).toMatchObject({ name: "t/db", entryId: "id-t/db", gguf: "/srv/models/sub/x.gguf", hfNames: ["Org/Db"], trainable: false });
    expect(shadowed.map((m) => m.name)).toEqual(["t/file", "t/other", "t/late"]);
    expect(findBaseModel(models, "t/file")?.source).toBe("file");
  });
});

describe("an upstream entry's lora block", () => {
  it("resolves gguf and write_dir beside the file, keeps vllm_dir as vLLM names it, and stays an upstream entry", () => {
    const { dir } = listBases([
      { name: "t/vllm", upstream: "http://vllm:8000/v1", gguf: "tiny.gguf", lora: { write_dir: "adapters", vllm_dir: "/adapters", max_loras: 2, max_rank: 64 } },
    ]);
    expect(configuredBaseModels().find((m) => m.name === "t/vllm")).toMatchObject({
      kind: "upstream",
      gguf: path.join(dir, "tiny.gguf"),
      lora: { writeDir: path.join(dir, "adapters"), vllmDir: "/adapters", maxLoras: 2, maxRank: 64 },
    });
  });

  it("refuses unknown fields in it (never falling back to a GGUF entry), and a lora block without a gguf", () => {
    listBases([{ name: "t/vllm", upstream: "http://vllm:8000/v1", gguf: "tiny.gguf", lora: { write_dir: "a", vllm_dir: "/a", max_loras: 2, max_rank: 64, max_lora: 3 } }]);
    expect(() => configuredBaseModels()).toThrow('ANNEAL_MODELS_FILE: 0.lora: Unrecognized key: "max_lora"');
    listBases([{ name: "t/vllm", upstream: "http://vllm:8000/v1", lora: { write_dir: "a", vllm_dir: "/a", max_loras: 2, max_rank: 64 } }]);
    expect(() => configuredBaseModels()).toThrow("ANNEAL_MODELS_FILE: t/vllm has `lora` but no `gguf`");
  });
});
