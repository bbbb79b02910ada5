import { redirect } from "next/navigation";
import { requireConsoleSession } from "@/lib/auth/console-session";

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const { workspace } = await requireConsoleSession();
  redirect(workspace.role === "annotator" ? "/settings/account" : "/settings/api-keys");
}
