"use client";

import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/relative-time";
import { RoleBadge } from "@/components/identity/role-badge";
import { TeamAvatar } from "@/components/identity/team-avatar";
import { useMe } from "@/components/identity/queries";
import { ChangePasswordForm } from "@/components/account/change-password-form";

export function AccountPanel() {
  const { data: me } = useMe();
  if (!me) return null;
  const { user } = me;
  return (
    <div className="grid items-start gap-5 lg:grid-cols-2">
      <div className="space-y-5">
        <Panel title="Profile">
          <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-y-3 px-4 py-4 text-sm">
            <dt className="text-zinc-500">Username</dt>
            <dd className="font-medium text-zinc-900">
              {user.username} {user.is_admin && <Badge tone="brand">Instance admin</Badge>}
            </dd>
            <dt className="text-zinc-500">Email</dt>
            <dd className="text-zinc-900">{user.email}</dd>
            <dt className="text-zinc-500">Member since</dt>
            <dd className="text-zinc-900">
              <RelativeTime iso={user.created_at} />
            </dd>
            <dt className="text-zinc-500">Default project</dt>
            <dd>
              <code className="font-mono text-xs text-zinc-700">{me.default_project}</code>
              <p className="mt-0.5 text-xs text-zinc-500">Where your API calls go without a Svc-Project header.</p>
            </dd>
          </dl>
        </Panel>
        <Panel title="Your teams">
          <ul className="divide-y divide-zinc-100">
            {me.teams.map((team) => (
              <li key={team.id} className="flex items-center gap-3 px-4 py-2.5 text-sm">
                <TeamAvatar name={team.name} />
                <span className="flex-1 font-medium text-zinc-900">{team.name}</span>
                {team.personal && <span className="text-xs text-zinc-400">personal</span>}
                <RoleBadge role={team.role} />
              </li>
            ))}
          </ul>
        </Panel>
      </div>
      <Panel title="Change password" description="Your other signed-in sessions stay signed in; API keys are not affected.">
        <ChangePasswordForm username={user.username} />
      </Panel>
    </div>
  );
}
