"use client";

import { Lock } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { ROLE_LABEL, RoleBadge } from "@/components/identity/role-badge";
import { useMembers, useUpdateMemberRole, type Member, type Role, type Team } from "@/components/identity/queries";
import { AddMemberDialog } from "@/components/teams/add-member-dialog";
import { RemoveMemberDialog } from "@/components/teams/remove-member-dialog";
import { errorMessage } from "@/lib/client/api-fetch";

const ROLES: Role[] = ["admin", "member", "annotator"];

function MemberRow({ member, team, manage, isYou }: { member: Member; team: Team; manage: boolean; isYou: boolean }) {
  const update = useUpdateMemberRole(team.name);
  const owner = team.personal && team.name === member.username;
  return (
    <Tr>
      <Td>
        <div className="flex items-center gap-3">
          <span className="flex size-8 items-center justify-center rounded-full bg-zinc-100 text-xs font-semibold text-zinc-600 uppercase" aria-hidden>
            {member.username.slice(0, 2)}
          </span>
          <div className="min-w-0">
            <p className="truncate font-medium text-zinc-900">
              {member.username}
              {isYou && <span className="ml-1.5 text-xs font-normal text-zinc-400">(you)</span>}
            </p>
            <p className="truncate text-xs text-zinc-500">{member.email}</p>
          </div>
        </div>
      </Td>
      <Td>
        {manage ? (
          <div>
            <select
              aria-label={`Role of ${member.username}`}
              value={member.role}
              disabled={update.isPending}
              onChange={(event) => update.mutate({ username: member.username, role: event.target.value as Role })}
              className="rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-sm shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABEL[role]}
                </option>
              ))}
            </select>
            {update.isError && (
              <p role="alert" className="mt-1 max-w-64 text-xs text-red-600">
                {errorMessage(update.error)}
              </p>
            )}
          </div>
        ) : (
          <RoleBadge role={member.role} />
        )}
      </Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={member.joined_at} />
      </Td>
      <Td className="text-right">{manage && !owner && <RemoveMemberDialog team={team.name} username={member.username} isYou={isYou} />}</Td>
    </Tr>
  );
}

export function MembersPanel({ team, currentUser }: { team: Team; currentUser: string }) {
  const canList = team.role !== "annotator";
  const manage = team.role === "admin";
  const members = useMembers(team.name, { enabled: canList });

  return (
    <Panel
      title={team.name}
      description={team.personal ? "Your personal team: add people to share your models and data with them." : `You are ${ROLE_LABEL[team.role].toLowerCase()} of this team.`}
      actions={manage && <AddMemberDialog team={team.name} />}
    >
      {!canList ? (
        <div className="flex flex-col items-center px-6 py-12 text-center">
          <Lock className="size-5 text-zinc-400" aria-hidden />
          <p className="mt-2 max-w-sm text-sm text-zinc-500">You annotate in this team; only its admins and members see who else belongs to it.</p>
        </div>
      ) : members.isPending ? (
        <TableSkeleton label="Loading members" />
      ) : members.isError ? (
        <QueryError what="the members" error={members.error} retry={() => void members.refetch()} />
      ) : (
        <>
          <Table label={`Members of ${team.name}`}>
            <THead>
              <Th>Member</Th>
              <Th>Role</Th>
              <Th>Joined</Th>
              <ThActions />
            </THead>
            <tbody>
              {members.data.map((member) => (
                <MemberRow key={member.user_id} member={member} team={team} manage={manage} isYou={member.username === currentUser} />
              ))}
            </tbody>
          </Table>
          {members.data.length === 1 && manage && (
            <div className="border-t border-zinc-100 p-4">
              <Alert tone="info">Only you so far. Add teammates with “Add member”: an existing user by username, or a new one with an email.</Alert>
            </div>
          )}
        </>
      )}
    </Panel>
  );
}
