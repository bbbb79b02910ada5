// Anneal's side of the base probe (docs/workers.md "Probe"): a fixed text tokenized once per base
// file by that base's own vocabulary (the ids a worker gets), Anneal's logprobs of those ids on the
// GGUF (computed once per file version), and the verdict on a worker's logprobs, kept on its
// RemoteWorker row: a mismatched base is never leased to that instance.
import type { WorkerPrincipal } from "@/lib/auth/principal";
import { conflict, invalid, notFound } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { readPerFileVersion, type FileVersionCache } from "@/lib/engine/gguf/file-version-cache";
import { ggufSummary } from "@/lib/engine/gguf/gguf-summary";
import { baseModelCatalogue, findBaseModel, type BaseModel } from "@/lib/inference/base-models";
import { meanAbsDelta } from "./probe";
import type { ProbeResult } from "./probe-results";
import { onOneShotThread } from "./one-shot-thread";
import type { ProbeThreadRequest } from "./probe-thread";
import { probeTolerance } from "./probe-tolerance";

export const PROBE_TOKENS = 64;

/** Plain prose in several registers and a little code and arithmetic, so every base's vocabulary
 *  yields well over 64 tokens and a different model predicts them differently. */
const PROBE_TEXT =
  "The river rose slowly through the night, and by morning the old bridge stood in water to its second arch. " +
  "Farmers moved their animals to the hill while the children watched from the school windows. " +
  "def mean(xs):\n    return sum(xs) / len(xs)\n\nprint(mean([3, 5, 7, 11]))  # 6.5\n" +
  "In 1869 the canal opened, cutting the voyage from London to Bombay by nearly 7,000 kilometres. " +
  "Q: What is 12 times 13? A: 156. Q: And the square root of 169? A: 13.";

const onThread = (request: ProbeThreadRequest) => onOneShotThread<number[]>("probe-thread.mjs", request, "probe");

/** Per version of a base's file: a failed computation is forgotten, so the next call tries again. */
function cachedPerFile(cache: FileVersionCache<Promise<number[]>>, gguf: string, request: ProbeThreadRequest): Promise<number[]> {
  const answer = readPerFileVersion(cache, gguf, () => onThread(request));
  answer.catch(() => cache.delete(gguf));
  return answer;
}

const probeIds: FileVersionCache<Promise<number[]>> = new Map();
const serverLogprobs: FileVersionCache<Promise<number[]>> = new Map();

/** The probe's token ids in this base's vocabulary (its GGUF's: the one it serves, or an upstream base's reference). */
export function probeIdsOf(base: { gguf: string }): Promise<number[]> {
  return cachedPerFile(probeIds, base.gguf, { op: "ids", gguf: base.gguf, text: PROBE_TEXT, tokens: PROBE_TOKENS });
}

/** The base a worker names (by hf_name or Anneal's name), or undefined when none is configured. */
export async function resolveOfferedBase(name: string): Promise<BaseModel | undefined> {
  return findBaseModel((await baseModelCatalogue()).models, name);
}

/** Records a verdict on the worker's row (other bases' verdicts stay). */
export async function recordProbe(remoteWorkerId: string, baseName: string, result: ProbeResult): Promise<void> {
  await getDb().$executeRawUnsafe(
    `UPDATE "RemoteWorker" SET probes = probes || jsonb_build_object($2::text, $3::jsonb) WHERE id = $1::uuid`,
    remoteWorkerId, baseName, JSON.stringify(result),
  );
}

export const UNCHECKED: ProbeResult = { passed: true, checked: false, mean_abs_delta: null, tolerance: null };

/** POST /v1/workers/probe: compares the worker's logprobs with Anneal's; a mismatch is a 409 naming
 *  the numbers (and the verdict stands: that instance is not leased the base's jobs). */
export async function checkProbe(principal: WorkerPrincipal, input: { instance: string; base: string; logprobs: number[] }) {
  const worker = await getDb().remoteWorker.findUnique({ where: { keyId_instance: { keyId: principal.workerKey.id, instance: input.instance } }, select: { id: true } });
  if (!worker) throw notFound(`No worker '${input.instance}' has leased with this key: POST /v1/workers/lease first.`);
  const base = await resolveOfferedBase(input.base);
  if (!base) throw notFound(`No base model '${input.base}' is configured on this instance.`);
  if (!base.gguf) {
    await recordProbe(worker.id, base.name, UNCHECKED);
    return { base: base.name, ...UNCHECKED };
  }
  const { gguf } = base;
  const ids = await probeIdsOf({ gguf });
  if (input.logprobs.length !== ids.length) {
    throw invalid(["body", "logprobs"], `The probe has ${ids.length} ids: send ${ids.length} logprobs (entry 0 is 0), not ${input.logprobs.length}.`);
  }
  const ours = await cachedPerFile(serverLogprobs, gguf, { op: "logprobs", gguf, ids });
  const delta = meanAbsDelta(ours, input.logprobs);
  const weightType = ggufSummary(gguf).weightType;
  const tolerance = probeTolerance(weightType);
  const result: ProbeResult = { passed: delta <= tolerance, checked: true, mean_abs_delta: delta, tolerance };
  await recordProbe(worker.id, base.name, result);
  if (!result.passed) {
    throw conflict(
      `The worker's '${input.base}' is not this instance's base '${base.name}': its probe logprobs differ from Anneal's by ${delta.toFixed(4)} nats ` +
        `on average, over the ${tolerance} a ${weightType} GGUF allows. This worker will not be leased that base's jobs.`,
    );
  }
  return { base: base.name, ...result };
}
