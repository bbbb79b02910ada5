import fs from "node:fs";
import type { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { badRequest, conflict, notFound } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { untrainableReason } from "@/lib/engine/gguf/trainable-check";
import { baseModelCatalogue, forgetDatabaseBaseModels, namesOf, type BaseModel } from "@/lib/inference/base-models";
import { ggufFacts, toBaseModelInfo, toCandidate } from "./base-model-info";
import { modelsDirFile, modelsDirGgufs } from "./models-dir";
import type { BaseModelCandidate, BaseModelInfo, createBaseModelBody } from "./schemas";

// The base-models API's domain: list every base (served, then shadowed database entries), the GGUFs under
// ANNEAL_MODELS_DIR that could be added, add one to the database, remove one. Callers are instance admins
// (the operations say so). A write drops this process's cached entries; other processes read the table
// again within a second (lib/inference/base-models.ts).

async function modelCounts(): Promise<Map<string, number>> {
  const groups = await getDb().model.groupBy({ by: ["baseModel"], _count: { _all: true } });
  return new Map(groups.map((g) => [g.baseModel, g._count._all]));
}

export async function listBaseModels(): Promise<{ data: BaseModelInfo[] }> {
  const [{ models, shadowed }, counts] = await Promise.all([baseModelCatalogue(), modelCounts()]);
  return {
    data: [
      ...models.map((m) => toBaseModelInfo(m, counts.get(m.name) ?? 0, false)),
      ...shadowed.map((m) => toBaseModelInfo(m, 0, true)),
    ],
  };
}

const realPath = (file: string) => {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
};

export async function listBaseModelCandidates(): Promise<{ data: BaseModelCandidate[] }> {
  const { models, shadowed } = await baseModelCatalogue();
  const registered = new Map<string, string>();
  for (const base of [...models, ...shadowed]) {
    const real = base.kind === "gguf" ? realPath(base.gguf) : null;
    if (real && !registered.has(real)) registered.set(real, base.name);
  }
  return { data: modelsDirGgufs().map((file) => toCandidate(file, registered.get(realPath(file.absolute) ?? "") ?? null)) };
}

export async function createBaseModel(principal: Principal, body: z.output<typeof createBaseModelBody>): Promise<BaseModelInfo> {
  const file = modelsDirFile(body.file);
  const { unreadable } = ggufFacts(file.absolute);
  if (unreadable) throw badRequest(`'${file.relative}' cannot be added: ${unreadable}.`);
  const refusal = untrainableReason(file.absolute);
  if (body.trainable && refusal) throw badRequest(`Anneal cannot train '${file.relative}': ${refusal}. Leave "trainable" out (or false) to serve it without training.`);

  const hfNames = (body.hf_name ?? []).filter((n) => n !== body.name);
  forgetDatabaseBaseModels(); // judge names against the table as it is now
  const { models, shadowed } = await baseModelCatalogue();
  const owners = new Map<string, BaseModel>();
  for (const base of [...models, ...shadowed]) for (const name of namesOf(base)) if (!owners.has(name)) owners.set(name, base);
  for (const name of [body.name, ...hfNames]) {
    const owner = owners.get(name);
    if (owner) throw conflict(`The name '${name}' is taken by the base model '${owner.name}'${owner.name === name ? "" : " (one of its hf_names)"}.`);
  }
  const row = await getDb().baseModelEntry.create({
    data: { name: body.name, hfNames, file: file.relative, description: body.description ?? "", trainable: body.trainable ?? refusal === null, createdById: principal.user.id },
  });
  forgetDatabaseBaseModels();
  const added = (await baseModelCatalogue()).models.find((m) => m.entryId === row.id);
  // Served at once, unless the models file claimed the name in between (then it is listed as shadowed).
  return added ? toBaseModelInfo(added, 0, false) : (await listBaseModels()).data.find((b) => b.id === row.id)!;
}

export async function deleteBaseModel(id: string): Promise<{ id: string; name: string }> {
  const row = await getDb().baseModelEntry.findUnique({ where: { id }, select: { id: true, name: true } });
  if (!row) throw notFound(`No base model added by API has the id ${id} (shipped and models-file bases cannot be removed here).`);
  // A shadowed entry serves nobody: the models of its name use the models file's base.
  const { shadowed } = await baseModelCatalogue();
  if (!shadowed.some((m) => m.entryId === id)) {
    const using = await getDb().model.count({ where: { baseModel: row.name } });
    if (using > 0) throw conflict(`'${row.name}' is the base of ${using} model${using === 1 ? "" : "s"}; delete ${using === 1 ? "it" : "them"} first.`);
  }
  await getDb().baseModelEntry.delete({ where: { id } });
  forgetDatabaseBaseModels();
  return { id: row.id, name: row.name };
}
