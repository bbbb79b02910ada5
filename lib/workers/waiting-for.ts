// A queued job no live trainer can take says so (docs/workers.md "A job no worker can take"): the
// embedded runner and database-attached workers (TrainingWorker rows seen in the last minute) take any
// job whose base they train (a trainable GGUF: an upstream base's jobs are remote workers' only); a
// remote worker seen in the last minute takes one whose kind, mode, rank, base (offered, and not
// refused by its probe) and team its capabilities and key fit.
import { getDb } from "@/lib/db/client";
import { baseModelCatalogue, findBaseModel, namesOf, type BaseModel } from "@/lib/inference/base-models";
import { storedLoraSettings } from "@/lib/engine/model/lora-settings";
import { trainsLocally } from "@/lib/training/trainable-base";
import { probeResultsOf, type ProbeResults } from "./probe-results";
import type { Capabilities } from "./schemas";

const LIVE_MS = 60_000;

export interface LiveTrainers {
  /** A runner that reaches the database (embedded or `npm run worker`) checked in lately. */
  local: boolean;
  remote: { capabilities: Capabilities; probes: ProbeResults; teamId: string | null }[];
  bases: readonly BaseModel[];
}

export interface WaitingJob {
  kind: string;
  status: string;
  model: { baseModel: string; lora: unknown; project: { teamId: string } };
}

export async function liveTrainers(): Promise<LiveTrainers> {
  const since = new Date(Date.now() - LIVE_MS);
  const [local, remote, { models }] = await Promise.all([
    getDb().trainingWorker.count({ where: { lastSeenAt: { gte: since } } }),
    getDb().remoteWorker.findMany({
      where: { lastSeenAt: { gte: since }, key: { revokedAt: null } },
      select: { capabilities: true, probes: true, key: { select: { teamId: true } } },
    }),
    baseModelCatalogue(),
  ]);
  return {
    local: local > 0,
    remote: remote.map((w) => ({ capabilities: w.capabilities as Capabilities, probes: probeResultsOf(w.probes), teamId: w.key.teamId })),
    bases: models,
  };
}

/** null while some live trainer can take the job (or it is not waiting), else what it waits for. */
export function waitingFor(job: WaitingJob, live: LiveTrainers): string | null {
  if (job.status !== "queued") return null;
  const base = findBaseModel(live.bases, job.model.baseModel);
  const baseName = base ? (base.hfNames[0] ?? base.name) : job.model.baseModel;
  if (live.local && base && trainsLocally(base)) return null;
  const lora = storedLoraSettings(job.model.lora);
  const names = base ? namesOf(base) : [job.model.baseModel];
  const offering = live.remote.filter((w) => w.capabilities.bases.some((b) => names.includes(b)) && w.probes[base?.name ?? ""]?.passed !== false);
  const fits = offering.filter(({ capabilities: c, teamId }) =>
    c.kinds.includes(job.kind as Capabilities["kinds"][number]) &&
    c.modes.includes(lora ? "lora" : "full") &&
    (!lora || lora.rank <= c.max_rank) &&
    (teamId === null || teamId === job.model.project.teamId));
  if (fits.length > 0) return null;
  if (offering.length === 0) return `a worker with base ${baseName} (no live worker offers it)`;
  const what = `${job.kind.toUpperCase()} ${lora ? `on a rank-${lora.rank} LoRA adapter` : "on full weights"}`;
  return `a worker with base ${baseName} that trains ${what} for this team (the live workers offering that base do not)`;
}

/** Jobs as the API shows them, with `waiting_for` set on the queued ones: one look at the live
 *  trainers for a whole page. */
export async function withWaitingFor<J extends { model_id: string; kind: string; status: string; waiting_for: string | null }>(jobs: J[]): Promise<J[]> {
  const queued = jobs.filter((j) => j.status === "queued");
  if (queued.length === 0) return jobs;
  const [live, models] = await Promise.all([
    liveTrainers(),
    getDb().model.findMany({
      where: { id: { in: [...new Set(queued.map((j) => j.model_id))] } },
      select: { id: true, baseModel: true, lora: true, project: { select: { teamId: true } } },
    }),
  ]);
  const byId = new Map(models.map((m) => [m.id, m]));
  return jobs.map((j) => {
    const model = byId.get(j.model_id);
    return model ? { ...j, waiting_for: waitingFor({ kind: j.kind, status: j.status, model }, live) } : j;
  });
}
