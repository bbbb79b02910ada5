import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { projectRefSchema, splitProjectRef } from "@/lib/auth/names";
import { resolveTeamAccess, teamIdsAllowing } from "@/lib/auth/team-access";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { getDb } from "@/lib/db/client";
import { calendarDateSchema } from "@/lib/contract/dates";
import { badRequest } from "@/lib/contract/errors";

// GET /v1/usage: the daily rollups of the caller's teams (admins and members), filtered by team
// or project and a date range; the write-behind buffer of calls is written first, so the usage of
// a response that has ended is counted.

export const usageQuerySchema = z.object({
  team: z.string().optional(),
  project: projectRefSchema.optional(),
  start: calendarDateSchema.optional().describe("First day (UTC), inclusive; default 30 days ago."),
  end: calendarDateSchema.optional().describe("Last day (UTC), inclusive; default today."),
});

export const usageSchema = z.object({
  object: z.literal("list"),
  start: z.string(),
  end: z.string(),
  data: z.array(
    z.object({
      day: z.string(),
      team: z.string(),
      project: z.string(),
      model: z.string(),
      requests: z.number().int(),
      errors: z.number().int(),
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      total_tokens: z.number().int(),
    }),
  ),
});

export async function getUsage(principal: Principal, query: z.infer<typeof usageQuerySchema>) {
  const end = query.end ?? new Date().toISOString().slice(0, 10);
  const start = query.start ?? new Date(Date.parse(end) - 29 * 86_400_000).toISOString().slice(0, 10);
  if (start > end) throw badRequest("start must not be after end.");
  const teamName = query.project ? splitProjectRef(query.project).team : query.team;
  const teamIds = teamName
    ? [(await resolveTeamAccess(principal, teamName, "use")).team.id]
    : await teamIdsAllowing(principal, "use");
  await flushCalls();
  const rows = await getDb().usageDaily.findMany({
    where: {
      day: { gte: new Date(`${start}T00:00:00Z`), lte: new Date(`${end}T00:00:00Z`) },
      project: { teamId: { in: teamIds }, ...(query.project ? { name: splitProjectRef(query.project).project } : {}) },
    },
    include: { project: { select: { name: true, team: { select: { name: true } } } } },
    orderBy: [{ day: "asc" }, { model: "asc" }],
  });
  return {
    object: "list" as const,
    start,
    end,
    data: rows.map((r) => ({
      day: r.day.toISOString().slice(0, 10),
      team: r.project.team.name,
      project: r.project.name,
      model: r.model,
      requests: r.requests,
      errors: r.errors,
      prompt_tokens: r.promptTokens,
      completion_tokens: r.completionTokens,
      total_tokens: r.promptTokens + r.completionTokens,
    })),
  };
}
