import type { Metadata } from "next";
import { AccountPanel } from "@/components/account/account-panel";
import { requireConsoleSession } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  await requireConsoleSession();
  return <AccountPanel />;
}
