import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { resolveQueue } from "./queue-access";
import { queueDto } from "./queue-dto";
import type { QueueDto, UpdateQueueBody } from "./queue-schemas";
import { resolveAnnotators, resolveQueueSpecs } from "./queue-settings";

// PATCH /annotation_queues/{queue_id}: members and admins change any of the settings. Specs sent
// again are pinned to their current versions (annotations already given keep their refs); the
// assignment is replaced as a whole. Items, progress and claims are untouched.

export async function updateQueue(principal: Principal, queueId: string, body: UpdateQueueBody): Promise<QueueDto> {
  const access = await resolveQueue(principal, queueId, "use");
  const specs = body.specs && (await resolveQueueSpecs(access.queue.projectId, access.project, body.specs));
  const annotators = body.annotators && (await resolveAnnotators(access.team.id, access.team.name, body.annotators));
  await getDb().$transaction(async (tx) => {
    await tx.annotationQueue.update({
      where: { id: queueId },
      data: {
        name: body.name,
        description: body.description,
        instructions: body.instructions,
        displayFields: body.display_fields,
        annotationsPerItem: body.annotations_per_item,
      },
    });
    if (specs) {
      await tx.annotationQueueSpec.deleteMany({ where: { queueId } });
      await tx.annotationQueueSpec.createMany({ data: specs.map((spec) => ({ ...spec, queueId })) });
    }
    if (annotators) {
      await tx.annotationQueueAnnotator.deleteMany({ where: { queueId } });
      await tx.annotationQueueAnnotator.createMany({ data: annotators.map((userId) => ({ queueId, userId })) });
    }
  });
  return queueDto(queueId);
}
