import type { Principal } from "@/lib/auth/principal";
import { resolveProject } from "@/lib/auth/projects";
import { getDb } from "@/lib/db/client";
import { queueDto } from "./queue-dto";
import type { CreateQueueBody, QueueDto } from "./queue-schemas";
import { resolveAnnotators, resolveQueueSpecs } from "./queue-settings";

// POST /annotation_queues: members and admins create a queue in a project that exists (its
// annotation specs live there).

export async function createQueue(principal: Principal, body: CreateQueueBody): Promise<QueueDto> {
  const access = await resolveProject(principal, body.project, "use", { createIfMissing: false });
  const specs = await resolveQueueSpecs(access.project.id, body.project, body.specs);
  const annotators = await resolveAnnotators(access.team.id, access.team.name, body.annotators);
  const queue = await getDb().annotationQueue.create({
    data: {
      projectId: access.project.id,
      name: body.name,
      description: body.description,
      instructions: body.instructions,
      displayFields: body.display_fields,
      annotationsPerItem: body.annotations_per_item,
      createdById: principal.user.id,
      specs: { create: specs },
      annotators: { create: annotators.map((userId) => ({ userId })) },
    },
    select: { id: true },
  });
  return queueDto(queue.id);
}
