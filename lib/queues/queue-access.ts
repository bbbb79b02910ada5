import { roleAllows, type Capability, type Principal, type Role } from "@/lib/auth/principal";
import { resolveTeamAccess } from "@/lib/auth/team-access";
import { AppError, forbidden } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";
import { queueNotFound } from "@/lib/feedback/queue-ref";

// Who reaches a queue (docs/contract.md "Identity, roles, auth"): members and admins every queue of
// their team, annotators only the queues assigned to them. A queue the caller cannot reach — another
// team's, one not assigned to an annotator, a deleted one — is a 404 that does not reveal it exists;
// a reachable queue whose action needs more than the caller's role (an annotator editing it) is a 403.

export interface QueueAccess {
  queue: {
    id: string;
    projectId: string;
    name: string;
    displayFields: string[];
    annotationsPerItem: number;
  };
  /** `team/project` */
  project: string;
  team: { id: string; name: string };
  role: Role;
}

interface QueueRow {
  id: string;
  projectId: string;
  name: string;
  displayFields: string[];
  annotationsPerItem: number;
  projectName: string;
  teamId: string;
  teamName: string;
  assigned: boolean;
}

export async function resolveQueue(principal: Principal, queueId: string, capability: Capability): Promise<QueueAccess> {
  // One statement: every queue route starts here.
  const [row] = await getDatabase().sql.query<QueueRow>(
    `SELECT q.id, q."projectId", q.name, q."displayFields", q."annotationsPerItem", p.name AS "projectName", t.id AS "teamId", t.name AS "teamName",
            EXISTS (SELECT 1 FROM "AnnotationQueueAnnotator" a WHERE a."queueId" = q.id AND a."userId" = $2::uuid) AS assigned
       FROM "AnnotationQueue" q JOIN "Project" p ON p.id = q."projectId" JOIN "Team" t ON t.id = p."teamId"
      WHERE q.id = $1::uuid AND q."deletedAt" IS NULL`,
    [queueId, principal.user.id],
  );
  if (!row) throw queueNotFound(queueId);
  let role: Role;
  try {
    ({ role } = await resolveTeamAccess(principal, row.teamName, "annotate"));
  } catch (error) {
    // The team's 404 would name the team of a queue the caller cannot see.
    if (error instanceof AppError && error.code === "not_found") throw queueNotFound(queueId);
    throw error;
  }
  if (!mayReach(role, row.assigned)) throw queueNotFound(queueId);
  if (!roleAllows(role, capability)) throw forbidden();
  const { id, projectId, name, displayFields, annotationsPerItem } = row;
  return {
    queue: { id, projectId, name, displayFields, annotationsPerItem },
    project: `${row.teamName}/${row.projectName}`,
    team: { id: row.teamId, name: row.teamName },
    role,
  };
}

/** Members and admins reach every queue of their team; annotators the ones assigned to them. */
export const mayReach = (role: Role, assigned: boolean) => assigned || roleAllows(role, "use");
