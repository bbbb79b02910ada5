"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useMe, useWorkspace } from "@/components/identity/queries";

const TABS = [
  { href: "/settings/api-keys", label: "API keys", team: true, admin: false },
  { href: "/settings/teams", label: "Teams and members", team: true, admin: false },
  { href: "/settings/account", label: "Account", team: false, admin: false },
  { href: "/settings/base-models", label: "Base models", team: true, admin: true },
  { href: "/settings/worker-keys", label: "Worker keys", team: true, admin: true },
];

export function SettingsTabs() {
  const pathname = usePathname();
  const { data: workspace } = useWorkspace();
  const { data: me } = useMe();
  // Base models and worker keys are the instance's: only its admins see their tabs (the pages say so to anyone else).
  const tabs = TABS.filter((tab) => (!tab.team || workspace?.role !== "annotator") && (!tab.admin || me?.user.is_admin));
  return (
    <nav aria-label="Settings" className="mb-6 flex gap-1 border-b border-zinc-200">
      {tabs.map((tab) => {
        const active = pathname === tab.href || pathname.startsWith(`${tab.href}/`);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 pt-1 pb-2.5 text-sm font-medium focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-brand-600 ${
              active ? "border-brand-600 text-zinc-900" : "border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
