"use client";

import { KeyRound, LogOut, UserRound, Users } from "lucide-react";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Badge } from "@/components/ui/badge";
import { useMe, useWorkspace } from "@/components/identity/queries";

/**
 * Signs out and goes to this origin's sign-in page. (next-auth's own redirect would use
 * NEXTAUTH_URL or its localhost default, which is wrong behind a proxy or on another port.)
 */
async function signOutHere() {
  await signOut({ redirect: false });
  window.location.assign("/login");
}

export function UserMenu() {
  const router = useRouter();
  const { data: me } = useMe();
  const { data: workspace } = useWorkspace();
  if (!me) return null;
  const { user } = me;
  const annotator = workspace?.role === "annotator";

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex items-center gap-2 rounded-full py-1 pr-1 pl-1 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100"
        aria-label={`Account menu for ${user.username}`}
      >
        <span className="flex size-7 items-center justify-center rounded-full bg-zinc-800 text-xs font-semibold text-white uppercase">
          {user.username.slice(0, 2)}
        </span>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <div className="px-2 py-2">
          <div className="flex items-center gap-2">
            <p className="truncate text-sm font-medium text-zinc-900">{user.username}</p>
            {user.is_admin && <Badge tone="brand">Instance admin</Badge>}
          </div>
          <p className="truncate text-xs text-zinc-500">{user.email}</p>
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => router.push("/settings/account")}>
          <UserRound /> Account and password
        </DropdownMenuItem>
        {!annotator && (
          <>
            <DropdownMenuItem onSelect={() => router.push("/settings/api-keys")}>
              <KeyRound /> API keys
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => router.push("/settings/teams")}>
              <Users /> Teams and members
            </DropdownMenuItem>
          </>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOutHere()}>
          <LogOut /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
