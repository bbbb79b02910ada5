import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { AppError, badRequest } from "@/lib/contract/errors";
import { ADAPTER_WEIGHTS } from "@/lib/engine/peft/peft-adapter";
import { baseModelCatalogue, findBaseModel, type UpstreamBaseModel, type UpstreamLora } from "@/lib/inference/base-models";
import { upstreamHeaders, upstreamHost, upstreamMessage } from "@/lib/inference/upstream-http";
import { log } from "@/lib/log";
import { checkpointPeftFiles, type PeftCheckpoint } from "@/lib/engine/peft/checkpoint-peft";
import type { LoraSettings } from "@/lib/engine/model/lora-settings";

// LoRA checkpoints served by a vLLM base (its models-file entry's `lora` block). On a checkpoint's
// first request Anneal writes it as a PEFT directory under write_dir/<name>/ and asks vLLM to load it
// from vllm_dir/<name> (POST /v1/load_lora_adapter; vLLM needs VLLM_ALLOW_RUNTIME_LORA_UPDATING=True);
// requests then name the adapter as their model. Each upstream keeps at most max_loras loaded: the
// least recently used is unloaded first. Concurrent first requests load once.

/** A LoRA checkpoint as vLLM serves it. */
export interface UpstreamAdapterRef {
  /** vLLM's lora_name, and the directory's under write_dir / vllm_dir. */
  name: string;
  lora: UpstreamLora;
  checkpoint: PeftCheckpoint;
}

/** `team-project-model-s<step>-<8 hex of the checkpoint's id>`: stable, safe in a path, and unique
 *  (names may hold "-", and a model deleted and made again under its name has new checkpoints). */
export function upstreamAdapterName(model: { entity: string; project: string; name: string }, step: number, checkpointId: string): string {
  const stem = `${model.entity}-${model.project}-${model.name}`.slice(0, 200); // a directory name's length is bounded
  return `${stem}-s${step}-${checkpointId.replace(/-/g, "").slice(-8)}`;
}

/** A job's model must be one its base's vLLM loads: a rank above max_rank is refused (400). */
export async function requireServableRank(baseName: string, settings: LoraSettings | null): Promise<void> {
  const base = findBaseModel((await baseModelCatalogue()).models, baseName);
  if (base?.kind !== "upstream" || !base.lora || !settings || settings.rank <= base.lora.maxRank) return;
  throw badRequest(
    `This model's LoRA rank is ${settings.rank}; its base '${base.name}' is served by vLLM with adapters up to rank ${base.lora.maxRank} ` +
      `(lora.max_rank in the models file, vLLM's --max-lora-rank). Train a model whose rank is at most ${base.lora.maxRank}.`,
  );
}

/** What one process knows of one upstream's adapters. On globalThis: npm start loads lib/ twice. */
interface LoadedAdapters {
  /** Loaded names, least recently used first (a Map keeps insertion order). */
  loaded: Map<string, true>;
  /** First loads in flight, by name: a second request waits for the first's. */
  loading: Map<string, Promise<void>>;
  /** Loads and unloads of this upstream run one at a time, so max_loras holds. */
  turn: Promise<unknown>;
}
const registryKey = Symbol.for("anneal.upstreamAdapters");
type Registry = { [registryKey]?: Map<string, LoadedAdapters> };

function adaptersOf(base: UpstreamBaseModel): LoadedAdapters {
  const registry = ((globalThis as Registry)[registryKey] ??= new Map());
  let state = registry.get(base.baseUrl);
  if (!state) registry.set(base.baseUrl, (state = { loaded: new Map(), loading: new Map(), turn: Promise.resolve() }));
  return state;
}

/** Loads the adapter on its upstream unless this process has loaded it already; marks it most recently used. */
export async function ensureUpstreamAdapter(base: UpstreamBaseModel, adapter: UpstreamAdapterRef): Promise<void> {
  const state = adaptersOf(base);
  if (state.loaded.delete(adapter.name)) {
    state.loaded.set(adapter.name, true);
    return;
  }
  let loading = state.loading.get(adapter.name);
  if (!loading) {
    const load = () => loadAdapter(base, adapter, state);
    loading = state.turn.then(load, load).finally(() => state.loading.delete(adapter.name));
    state.turn = loading.catch(() => {});
    state.loading.set(adapter.name, loading);
  }
  await loading;
}

/** The upstream no longer has it (it answered 404: vLLM restarted, or another process unloaded it). */
export function forgetUpstreamAdapter(base: UpstreamBaseModel, name: string): void {
  adaptersOf(base).loaded.delete(name);
}

async function loadAdapter(base: UpstreamBaseModel, adapter: UpstreamAdapterRef, state: LoadedAdapters): Promise<void> {
  writePeftDirectory(base, adapter);
  while (state.loaded.size >= adapter.lora.maxLoras) {
    const [oldest] = state.loaded.keys();
    await unloadAdapter(base, oldest);
    state.loaded.delete(oldest);
  }
  const response = await callUpstream(base, "load_lora_adapter", { lora_name: adapter.name, lora_path: path.posix.join(adapter.lora.vllmDir, adapter.name) });
  const message = response.ok ? "" : upstreamMessage(await response.text());
  // vLLM refuses a name it holds with a 400 (serving_models.py): after Anneal restarts, that one is loaded.
  if (!response.ok && !(response.status === 400 && /has already been loaded/.test(message))) {
    throw new AppError(
      "unavailable",
      `vLLM at ${upstreamHost(base)} could not load the adapter '${adapter.name}' (${response.status}: ${message}). ` +
        "Check that lora.vllm_dir names lora.write_dir's directory as vLLM's machine sees it, and that vLLM runs with --enable-lora and VLLM_ALLOW_RUNTIME_LORA_UPDATING=True.",
    );
  }
  state.loaded.set(adapter.name, true);
}

async function unloadAdapter(base: UpstreamBaseModel, name: string): Promise<void> {
  const response = await callUpstream(base, "unload_lora_adapter", { lora_name: name });
  // 404: vLLM no longer holds it (it restarted): unloaded all the same.
  if (!response.ok && response.status !== 404) {
    throw new AppError("unavailable", `vLLM at ${upstreamHost(base)} could not unload the adapter '${name}' to make room (${response.status}: ${upstreamMessage(await response.text())}).`);
  }
  await response.body?.cancel();
  log.info("unloaded a LoRA adapter from its upstream", { upstream: upstreamHost(base), adapter: name });
}

const ADAPTER_CALL_TIMEOUT_MS = 120_000;

async function callUpstream(base: UpstreamBaseModel, endpoint: string, body: object): Promise<Response> {
  try {
    return await fetch(`${base.baseUrl}/${endpoint}`, {
      method: "POST",
      headers: upstreamHeaders(base),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ADAPTER_CALL_TIMEOUT_MS),
    });
  } catch (error) {
    throw new AppError("unavailable", `vLLM at ${upstreamHost(base)} is unreachable for ${endpoint}: ${(error as Error).message}`);
  }
}

/** write_dir/<name>/ as a PEFT directory, unless a complete one is there (its contents depend on the
 *  checkpoint only). Written beside and renamed, so vLLM never reads half a directory. */
function writePeftDirectory(base: UpstreamBaseModel, adapter: UpstreamAdapterRef): void {
  const target = path.join(adapter.lora.writeDir, adapter.name);
  if (fs.existsSync(path.join(target, ADAPTER_WEIGHTS))) return;
  if (!fs.statSync(adapter.lora.writeDir, { throwIfNoEntry: false })?.isDirectory()) {
    // The message names the setting, not the path: a client sees it as a 503.
    log.error("an upstream's lora.write_dir is not a directory", { base: base.name, write_dir: adapter.lora.writeDir });
    throw new AppError("unavailable", `The models file's lora.write_dir of '${base.name}' is not a directory here: Anneal cannot write adapters for vLLM.`);
  }
  const partial = `${target}.partial-${randomUUID()}`;
  fs.mkdirSync(partial);
  try {
    for (const { name, data } of checkpointPeftFiles(adapter.checkpoint)) fs.writeFileSync(path.join(partial, name), data);
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    // Another process wrote it first: theirs is the same.
    if (fs.existsSync(path.join(target, ADAPTER_WEIGHTS))) return;
    throw error;
  }
}
