"use client";

import { useState } from "react";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { RoleBadge } from "@/components/identity/role-badge";
import { TeamAvatar } from "@/components/identity/team-avatar";
import { useMe, useTeams, useWorkspace, type Team } from "@/components/identity/queries";
import { CreateTeamDialog } from "@/components/teams/create-team-dialog";
import { MembersPanel } from "@/components/teams/members-panel";

function TeamList({ teams, selected, onSelect }: { teams: Team[]; selected: string; onSelect: (name: string) => void }) {
  return (
    <ul className="divide-y divide-zinc-100" aria-label="Your teams">
      {teams.map((team) => {
        const active = team.name === selected;
        return (
          <li key={team.id}>
            <button
              type="button"
              aria-pressed={active}
              onClick={() => onSelect(team.name)}
              className={`flex w-full items-center gap-3 px-4 py-2.5 text-left focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600 ${
                active ? "bg-brand-50/70" : "hover:bg-zinc-50"
              }`}
            >
              <TeamAvatar name={team.name} size="md" />
              <span className="min-w-0 flex-1">
                <span className={`block truncate text-sm font-medium ${active ? "text-brand-800" : "text-zinc-900"}`}>{team.name}</span>
                <span className="block text-xs text-zinc-500">{team.personal ? "Personal team" : "Team"}</span>
              </span>
              <RoleBadge role={team.role} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function TeamsPanel() {
  const { data: me } = useMe();
  const { data: workspace } = useWorkspace();
  const teams = useTeams();
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = teams.data?.find((t) => t.name === chosen) ?? teams.data?.find((t) => t.name === workspace?.team) ?? teams.data?.[0];

  return (
    <div className="space-y-5">
      <div className="flex items-start justify-between gap-6">
        <p className="max-w-2xl text-sm text-zinc-500">
          Everyone belongs to a personal team and to the teams they are added to. <strong className="font-medium text-zinc-700">Admins</strong>{" "}
          manage members, <strong className="font-medium text-zinc-700">members</strong> use everything else, and{" "}
          <strong className="font-medium text-zinc-700">annotators</strong> only see the annotation area.
        </p>
        {me?.user.is_admin && <CreateTeamDialog onCreated={setChosen} />}
      </div>
      <div className="grid items-start gap-5 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <Panel title="Teams">
          {teams.isPending ? (
            <div role="status" aria-label="Loading teams" className="space-y-3 p-4">
              <Skeleton className="h-8" />
              <Skeleton className="h-8" />
            </div>
          ) : teams.isError ? (
            <QueryError what="your teams" error={teams.error} retry={() => void teams.refetch()} />
          ) : (
            <TeamList teams={teams.data} selected={selected?.name ?? ""} onSelect={setChosen} />
          )}
        </Panel>
        {selected && <MembersPanel key={selected.name} team={selected} currentUser={me?.user.username ?? ""} />}
      </div>
    </div>
  );
}
