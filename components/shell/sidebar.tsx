"use client";

import { BookOpen, Settings } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useWorkspace } from "@/components/identity/queries";
import { navFor, type NavItem } from "@/components/shell/nav-items";

function NavLink({ item, active }: { item: NavItem; active: boolean }) {
  const Icon = item.icon;
  return (
    <Link
      href={item.href}
      aria-current={active ? "page" : undefined}
      className={`group flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600 ${
        active ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-600 hover:bg-zinc-200/50 hover:text-zinc-900"
      }`}
    >
      <Icon className={`size-4 ${active ? "text-brand-600" : "text-zinc-400 group-hover:text-zinc-600"}`} aria-hidden />
      {item.label}
    </Link>
  );
}

export function Sidebar() {
  const pathname = usePathname();
  const { data: workspace } = useWorkspace();
  const role = workspace?.role ?? "annotator";
  const isActive = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  const settings: NavItem = { href: role === "annotator" ? "/settings/account" : "/settings", label: "Settings", icon: Settings };

  return (
    <aside className="flex w-56 shrink-0 flex-col border-r border-zinc-200 bg-zinc-100/70">
      <Link
        href="/"
        className="flex h-14 items-center gap-2.5 px-4 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600"
      >
        <span className="flex size-7 items-center justify-center rounded-lg bg-gradient-to-br from-brand-500 to-brand-700 text-sm font-bold text-white shadow-sm">
          A
        </span>
        <span className="text-[15px] font-semibold tracking-tight text-zinc-900">Anneal</span>
      </Link>
      <nav aria-label="Main" className="flex flex-1 flex-col gap-0.5 px-2 pt-2">
        {navFor(role).map((item) => (
          <NavLink key={item.href} item={item} active={isActive(item.href)} />
        ))}
      </nav>
      <div className="flex flex-col gap-0.5 border-t border-zinc-200 px-2 py-3">
        <NavLink item={settings} active={isActive("/settings")} />
        <NavLink item={{ href: "/api-reference", label: "API reference", icon: BookOpen }} active={isActive("/api-reference")} />
      </div>
    </aside>
  );
}
