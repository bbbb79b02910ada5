import { getDb } from "@/lib/db/client";
import { storedDefinition } from "@/lib/feedback/annotation-specs";
import { objectRef } from "@/lib/feedback/refs";
import { countItems } from "./item-status";
import type { QueueDto, QueueSpecDto } from "./queue-schemas";

// Queues as the API returns them: settings, the pinned spec versions with their definitions, the
// assigned users, and the items by status. Loaded for a page (or one queue) at a time.

export async function queueDtos(ids: string[]): Promise<QueueDto[]> {
  const rows = await getDb().annotationQueue.findMany({
    where: { id: { in: ids } },
    include: {
      project: { select: { name: true, team: { select: { name: true } } } },
      specs: { orderBy: { position: "asc" }, include: { spec: true } },
      annotators: { orderBy: { user: { username: "asc" } }, select: { user: { select: { id: true, username: true } } } },
    },
  });
  const counts = await countItems(ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id)!;
    const project = `${row.project.team.name}/${row.project.name}`;
    return {
      object: "annotation_queue",
      id: row.id,
      project,
      name: row.name,
      description: row.description,
      instructions: row.instructions,
      specs: row.specs.map(({ spec, required }): QueueSpecDto => ({
        ...storedDefinition(spec),
        name: spec.name,
        ref: objectRef(project, spec.name, spec.digest),
        version: spec.version,
        description: spec.description,
        required,
      })),
      display_fields: row.displayFields,
      annotations_per_item: row.annotationsPerItem,
      annotators: row.annotators.map(({ user }) => ({ user_id: user.id, username: user.username })),
      created_by: row.createdById,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      counts: counts.get(id)!,
    };
  });
}

export async function queueDto(id: string): Promise<QueueDto> {
  return (await queueDtos([id]))[0];
}
