import { roleAllows, type Principal } from "@/lib/auth/principal";
import { resolveProject } from "@/lib/auth/projects";
import { listAccessibleTeams } from "@/lib/auth/team-access";
import { CURSOR_SELECT, pageByCreation, type Page } from "@/lib/contract/pagination";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { queueDtos } from "./queue-dto";
import type { ListQueuesQuery, QueueDto } from "./queue-schemas";

// GET /annotation_queues: the queues the caller reaches (one project's, or every team's), oldest
// first: all of a team's for members and admins, the assigned ones for annotators.

async function reachable(principal: Principal, project: string | undefined): Promise<Prisma.AnnotationQueueWhereInput> {
  const assigned = { annotators: { some: { userId: principal.user.id } } };
  if (project) {
    const access = await resolveProject(principal, project, "annotate", { createIfMissing: false });
    return { projectId: access.project.id, ...(roleAllows(access.role, "use") ? {} : assigned) };
  }
  const teams = await listAccessibleTeams(principal);
  const ids = (full: boolean) => teams.filter((t) => roleAllows(t.role, "use") === full).map((t) => t.team.id);
  return { OR: [{ project: { teamId: { in: ids(true) } } }, { project: { teamId: { in: ids(false) } }, ...assigned }] };
}

export async function listQueues(principal: Principal, query: ListQueuesQuery): Promise<Page<QueueDto>> {
  const where: Prisma.AnnotationQueueWhereInput = { AND: [await reachable(principal, query.project), { deletedAt: null }] };
  const db = getDb();
  const page = await pageByCreation({
    query,
    findCursor: (id) => db.annotationQueue.findFirst({ where: { AND: [where, { id }] }, select: CURSOR_SELECT }),
    findRows: (args) => db.annotationQueue.findMany({ ...args, where: { AND: [where, args.where] }, select: { id: true } }),
    toDto: (row) => row,
  });
  return { ...page, data: await queueDtos(page.data.map((row) => row.id)) };
}
