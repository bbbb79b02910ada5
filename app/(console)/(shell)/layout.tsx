import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { ConsoleProviders } from "@/components/shell/console-providers";
import { requireConsoleSession } from "@/lib/auth/console-session";

// Every console page behind sign-in. Reads the session: never prerendered (the build must not
// touch the database).
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { me, workspace } = await requireConsoleSession();
  return (
    <ConsoleProviders me={me} workspace={workspace}>
      <AppShell>{children}</AppShell>
    </ConsoleProviders>
  );
}
