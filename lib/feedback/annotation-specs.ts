import { createHash } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { resolveProject, type ProjectAccess } from "@/lib/auth/projects";
import { conflict, notFound } from "@/lib/contract/errors";
import { unknownCursor, type Page } from "@/lib/contract/pagination";
import { getDb } from "@/lib/db/client";
import type { AnnotationSpec } from "@/lib/db/generated/client";
import type { AnnotationSpecDto, CreateSpecBody, SpecDefinition, UpdateSpecBody } from "./annotation-spec-schemas";
import { objectRef } from "./refs";

// Annotation specs: create, list, get, update (a new version when the definition changes) and
// delete (every version marked deleted; feedback keeps its refs, new annotations are refused).
// Reading needs any role of the team; writing needs "use" (members and admins).

type Spec = Pick<AnnotationSpec, "name" | "version" | "digest" | "description" | "type" | "settings" | "createdAt">;

const projectRef = (access: ProjectAccess) => `${access.team.name}/${access.project.name}`;

/** Splits a validated body into the stored definition (type + settings) and the rest. */
function definitionOf(body: CreateSpecBody | UpdateSpecBody): SpecDefinition {
  const { description: _description, name: _name, ...definition } = body as CreateSpecBody;
  return definition as SpecDefinition;
}

function settingsOf(definition: SpecDefinition): Record<string, unknown> {
  const { type: _, ...settings } = definition;
  return settings;
}

/** The spec's stored definition as the validated object it was made from. */
export function storedDefinition(spec: Pick<AnnotationSpec, "type" | "settings">): SpecDefinition {
  return { ...(spec.settings as Record<string, unknown>), type: spec.type } as SpecDefinition;
}

/** A content hash of the definition (keys sorted): the `:<digest>` of the spec's ref, base64url as Weave's. */
export function specDigest(description: string, definition: SpecDefinition): string {
  const sorted = Object.fromEntries(Object.entries({ ...definition, description }).sort(([a], [b]) => a.localeCompare(b)));
  return createHash("sha256").update(JSON.stringify(sorted)).digest("base64url");
}

function toDto(access: ProjectAccess, spec: Spec, firstCreatedAt: Date): AnnotationSpecDto {
  return {
    object: "annotation_spec",
    name: spec.name,
    project: projectRef(access),
    ref: objectRef(projectRef(access), spec.name, spec.digest),
    digest: spec.digest,
    version: spec.version,
    description: spec.description,
    ...storedDefinition(spec),
    created_at: firstCreatedAt.toISOString(),
    updated_at: spec.createdAt.toISOString(),
  } as AnnotationSpecDto;
}

/** The live (not deleted) versions of a spec, newest first; empty when it does not exist. */
async function liveVersions(projectId: string, name: string) {
  return getDb().annotationSpec.findMany({ where: { projectId, name, deletedAt: null }, orderBy: { version: "desc" } });
}

async function currentSpec(access: ProjectAccess, name: string): Promise<AnnotationSpecDto> {
  const versions = await liveVersions(access.project.id, name);
  if (versions.length === 0) throw notFound(`Annotation spec '${name}' not found in project '${projectRef(access)}'.`);
  return toDto(access, versions[0], versions.at(-1)!.createdAt);
}

export async function createAnnotationSpec(principal: Principal, project: string, body: CreateSpecBody): Promise<AnnotationSpecDto> {
  const access = await resolveProject(principal, project, "use");
  const definition = definitionOf(body);
  const db = getDb();
  await db.$transaction(async (tx) => {
    const latest = await tx.annotationSpec.findFirst({ where: { projectId: access.project.id, name: body.name }, orderBy: { version: "desc" } });
    if (latest && !latest.deletedAt) throw conflict(`Annotation spec '${body.name}' already exists in project '${project}'.`);
    // A name used before keeps counting versions, so a ref to a deleted spec never names a new one.
    await tx.annotationSpec.create({
      data: {
        projectId: access.project.id,
        name: body.name,
        version: (latest?.version ?? 0) + 1,
        digest: specDigest(body.description, definition),
        description: body.description,
        type: definition.type,
        settings: settingsOf(definition) as object,
        createdById: principal.user.id,
      },
    });
  });
  return currentSpec(access, body.name);
}

export async function listAnnotationSpecs(
  principal: Principal,
  project: string,
  query: { after?: string; limit: number; order: "asc" | "desc" },
): Promise<Page<AnnotationSpecDto>> {
  const access = await resolveProject(principal, project, "annotate", { createIfMissing: false });
  const db = getDb();
  if (query.after && (await liveVersions(access.project.id, query.after)).length === 0) throw unknownCursor(query.after);
  const live = { projectId: access.project.id, deletedAt: null };
  const names = await db.annotationSpec.groupBy({
    by: ["name"],
    where: { ...live, ...(query.after ? { name: query.order === "asc" ? { gt: query.after } : { lt: query.after } } : {}) },
    orderBy: { name: query.order },
    take: query.limit + 1,
  });
  const page = names.slice(0, query.limit).map((n) => n.name);
  const versions = await db.annotationSpec.findMany({ where: { ...live, name: { in: page } }, orderBy: { version: "desc" } });
  const data = page.map((name) => {
    const mine = versions.filter((v) => v.name === name);
    return toDto(access, mine[0], mine.at(-1)!.createdAt);
  });
  // Specs are identified by name, so the page's cursors are names.
  return { object: "list", data, first_id: page[0] ?? "", last_id: page.at(-1) ?? "", has_more: names.length > query.limit };
}

export async function getAnnotationSpec(principal: Principal, project: string, name: string): Promise<AnnotationSpecDto> {
  return currentSpec(await resolveProject(principal, project, "annotate", { createIfMissing: false }), name);
}

export async function updateAnnotationSpec(principal: Principal, project: string, name: string, body: UpdateSpecBody): Promise<AnnotationSpecDto> {
  const access = await resolveProject(principal, project, "use", { createIfMissing: false });
  const definition = definitionOf(body);
  const digest = specDigest(body.description, definition);
  await getDb().$transaction(async (tx) => {
    const latest = await tx.annotationSpec.findFirst({ where: { projectId: access.project.id, name, deletedAt: null }, orderBy: { version: "desc" } });
    if (!latest) throw notFound(`Annotation spec '${name}' not found in project '${project}'.`);
    if (latest.digest === digest) return; // unchanged: no new version
    await tx.annotationSpec.create({
      data: {
        projectId: access.project.id, name, version: latest.version + 1, digest,
        description: body.description, type: definition.type, settings: settingsOf(definition) as object, createdById: principal.user.id,
      },
    });
  });
  return currentSpec(access, name);
}

export async function deleteAnnotationSpec(principal: Principal, project: string, name: string): Promise<{ deleted: true; name: string }> {
  const access = await resolveProject(principal, project, "use", { createIfMissing: false });
  const { count } = await getDb().annotationSpec.updateMany({ where: { projectId: access.project.id, name, deletedAt: null }, data: { deletedAt: new Date() } });
  if (count === 0) throw notFound(`Annotation spec '${name}' not found in project '${project}'.`);
  return { deleted: true, name };
}

/** The live version a ref's name and digest point at, if any (what an annotation is checked against). */
export async function findLiveSpecVersion(projectId: string, name: string, digest: string) {
  return getDb().annotationSpec.findFirst({ where: { projectId, name, digest, deletedAt: null }, orderBy: { version: "desc" } });
}
