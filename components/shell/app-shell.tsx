"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect, type ReactNode } from "react";
import { useWorkspace } from "@/components/identity/queries";
import { isAnnotatorPath } from "@/components/shell/nav-items";
import { Sidebar } from "@/components/shell/sidebar";
import { UserMenu } from "@/components/shell/user-menu";
import { WorkspaceSwitcher } from "@/components/shell/workspace-switcher";

/** Sidebar, top bar (team/project switcher, user menu) and the page. */
export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const { data: workspace } = useWorkspace();

  // The server redirects annotators on load; this covers switching team while on a page.
  useEffect(() => {
    if (workspace?.role === "annotator" && !isAnnotatorPath(pathname)) router.replace("/annotate");
  }, [workspace?.role, pathname, router]);

  return (
    <div className="flex h-full">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Sidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center justify-between gap-4 border-b border-zinc-200 bg-white px-5">
          <WorkspaceSwitcher />
          <UserMenu />
        </header>
        <main id="main" className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto max-w-6xl px-8 py-7">{children}</div>
        </main>
      </div>
    </div>
  );
}
