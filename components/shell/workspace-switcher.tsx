"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ChevronsUpDown, FolderGit2, Users } from "lucide-react";
import { usePathname, useRouter } from "next/navigation";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useMe, useProjects, useSetWorkspace, useWorkspace } from "@/components/identity/queries";
import { isAnnotatorPath } from "@/components/shell/nav-items";
import { RoleBadge } from "@/components/identity/role-badge";
import { TeamAvatar } from "@/components/identity/team-avatar";
import { errorMessage } from "@/lib/client/api-fetch";

const TRIGGER =
  "inline-flex max-w-64 items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100";

/** Team / project breadcrumb: the selection is remembered per user by PUT /v1/me/workspace. */
export function WorkspaceSwitcher() {
  const router = useRouter();
  const pathname = usePathname();
  const client = useQueryClient();
  const { data: me } = useMe();
  const { data: workspace } = useWorkspace();
  const projects = useProjects(workspace?.team);
  const select = useSetWorkspace();
  if (!me || !workspace) return null;

  const projectNames = Array.from(new Set(["default", workspace.project, ...(projects.data ?? []).map((p) => p.name)])).sort();

  function choose(team: string, project: string) {
    if (team === workspace?.team && project === workspace.project) return;
    select.mutate(
      { team, project },
      {
        onSuccess: (next) => {
          // Everything else the console shows belongs to a team: refetch it for the new one.
          void client.invalidateQueries({ predicate: (q) => q.queryKey[1] !== "me" && q.queryKey[1] !== "workspace" });
          if (next.role === "annotator" && !isAnnotatorPath(pathname)) router.push("/annotate");
          router.refresh();
        },
      },
    );
  }

  return (
    <div className="flex min-w-0 items-center gap-1">
      <DropdownMenu>
        <DropdownMenuTrigger className={TRIGGER} aria-label={`Team: ${workspace.team}. Switch team`}>
          <TeamAvatar name={workspace.team} />
          <span className="truncate">{workspace.team}</span>
          <ChevronsUpDown className="size-3.5 text-zinc-400" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-72">
          <DropdownMenuLabel>Teams</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={workspace.team} onValueChange={(team) => choose(team, "default")}>
            {me.teams.map((team) => (
              <DropdownMenuRadioItem key={team.id} value={team.name}>
                <TeamAvatar name={team.name} />
                <span className="min-w-0 flex-1 truncate">{team.name}</span>
                {team.personal ? <span className="text-xs text-zinc-400">personal</span> : <RoleBadge role={team.role} subtle />}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          {workspace.role !== "annotator" && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => router.push("/settings/teams")}>
                <Users /> {me.user.is_admin ? "Create or manage teams" : "Teams and members"}
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <span className="text-zinc-300" aria-hidden>
        /
      </span>
      <DropdownMenu>
        <DropdownMenuTrigger className={TRIGGER} aria-label={`Project: ${workspace.project}. Switch project`}>
          <FolderGit2 className="size-4 text-zinc-400" aria-hidden />
          <span className="truncate">{workspace.project}</span>
          <ChevronsUpDown className="size-3.5 text-zinc-400" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-64">
          <DropdownMenuLabel>Projects in {workspace.team}</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={workspace.project} onValueChange={(project) => choose(workspace.team, project)}>
            {projectNames.map((name) => (
              <DropdownMenuRadioItem key={name} value={name}>
                <FolderGit2 />
                {name}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <p className="px-2 py-1.5 text-xs leading-relaxed text-zinc-500">
            A project is created the first time something is written to it, e.g. a chat completion with{" "}
            <code className="font-mono text-[11px]">Svc-Project: {workspace.team}/&lt;name&gt;</code>.
          </p>
        </DropdownMenuContent>
      </DropdownMenu>
      {workspace.role !== "admin" && <RoleBadge role={workspace.role} />}
      {select.isError && (
        <span role="alert" className="ml-2 text-xs text-red-600">
          {errorMessage(select.error)}
        </span>
      )}
    </div>
  );
}
