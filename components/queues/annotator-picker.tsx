"use client";

import { useMembers } from "@/components/identity/queries";
import { RoleBadge } from "@/components/identity/role-badge";
import { Skeleton } from "@/components/ui/skeleton";

// Who is assigned to a queue: the team's users, ticked by username. Annotators reach only the
// queues assigned to them; members and admins reach every queue of the team anyway.

export function AnnotatorPicker({ team, value, onChange, error }: { team: string; value: string[]; onChange: (usernames: string[]) => void; error?: string }) {
  const members = useMembers(team);
  const toggle = (username: string, on: boolean) => onChange(on ? [...value, username] : value.filter((name) => name !== username));
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">Assigned annotators</legend>
      {members.isPending ? (
        <Skeleton className="h-12" />
      ) : (
        <ul className="max-h-40 divide-y divide-zinc-100 overflow-y-auto rounded-md border border-zinc-200">
          {(members.data ?? []).map((member) => (
            <li key={member.user_id} className="px-3 py-1.5">
              <label className="flex cursor-pointer items-center gap-2 text-sm text-zinc-800">
                <input type="checkbox" className="size-4 accent-brand-600" checked={value.includes(member.username)} onChange={(e) => toggle(member.username, e.target.checked)} />
                <span className="font-medium">{member.username}</span>
                <RoleBadge role={member.role} />
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="mt-1 text-xs text-red-600">{error}</p>}
    </fieldset>
  );
}
